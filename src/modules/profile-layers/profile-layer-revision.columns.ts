import { Column } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { LayerStatus } from './profile-scope.constants';

export type RevisionAction = 'save' | 'activate' | 'deprecate' | 'retire' | 'reset';

/** One change of a hosted_default layer: the audit trail behind get_profile_layer_revisions. */
export abstract class ProfileLayerRevisionColumns {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  scope_id!: string;

  @Column('integer')
  revision!: number;

  @Column('text')
  action!: RevisionAction;

  @Column('text')
  status!: LayerStatus;

  @Column('text')
  fields!: string;

  @Column('text')
  reset_fields!: string;

  @Column('text')
  provenance!: string;

  /** Who made the change (hosted: an admin's address, `admin password`, or the operator's workspace); null self-hosted. */
  @Column('text', { nullable: true })
  author!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
