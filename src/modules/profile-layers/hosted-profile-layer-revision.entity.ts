import { Entity } from 'typeorm';
import { ProfileLayerRevisionColumns } from './profile-layer-revision.columns';

/** A revision of a hosted deployment's hosted_default layer, in the control schema. */
@Entity({ name: 'hosted_profile_layer_revisions', schema: 'control' })
export class HostedProfileLayerRevision extends ProfileLayerRevisionColumns {}
