import { Entity } from 'typeorm';
import { ProfileLayerColumns } from './profile-layer.columns';

/** A profile layer in a tenant's own storage (and hosted_default layers of a self-hosted instance). */
@Entity('profile_layers')
export class ProfileLayer extends ProfileLayerColumns {}
