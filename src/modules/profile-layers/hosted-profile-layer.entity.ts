import { Entity } from 'typeorm';
import { ProfileLayerColumns } from './profile-layer.columns';

/** A hosted_default layer of a hosted deployment: operator-wide, in the control schema. */
@Entity({ name: 'hosted_profile_layers', schema: 'control' })
export class HostedProfileLayer extends ProfileLayerColumns {}
