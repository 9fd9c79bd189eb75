import { Entity } from 'typeorm';
import { ProfileLayerRevisionColumns } from './profile-layer-revision.columns';

export type { RevisionAction } from './profile-layer-revision.columns';

/** A revision of a self-hosted instance's hosted_default layer, in the tenant's storage. */
@Entity('profile_layer_revisions')
export class ProfileLayerRevision extends ProfileLayerRevisionColumns {}
