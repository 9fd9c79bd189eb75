import { Column } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { LayerStatus, ProfileScope } from './profile-scope.constants';

/**
 * One profile layer: the fields one scope sets. A tenant's layers live in its
 * own storage (ProfileLayer); hosted_default layers of a hosted deployment live
 * in the control schema (HostedProfileLayer), with the same columns.
 */
export abstract class ProfileLayerColumns {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  scope_type!: ProfileScope;

  @Column('text')
  scope_id!: string;

  /** The project a project or session layer belongs to: deleting the project deletes the layer. */
  @IdColumn({ nullable: true })
  project_id!: string | null;

  /** hosted_default only: draft, active, deprecated or retired. */
  @Column('text', { nullable: true })
  status!: LayerStatus | null;

  /** JSON object of the fields this scope sets (executor_config nested). */
  @Column('text')
  fields!: string;

  /** JSON array of flat field names this scope puts back to Baton's default. */
  @Column('text')
  reset_fields!: string;

  /** JSON object: why and how the layer was last written (override_reason, loosened fields, clone source). */
  @Column('text')
  provenance!: string;

  @Column('integer')
  revision!: number;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
