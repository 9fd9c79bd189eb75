import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/**
 * The effective profile a session started with. A later change of a field
 * that needs a restart (executor_config.repo_path) is reported against it.
 */
@Entity('profile_session_baselines')
export class ProfileSessionBaseline {
  @PrimaryIdColumn()
  session_id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  generation_key!: string;

  /** JSON object of flat field name to effective value. */
  @Column('text')
  fields!: string;

  @TimestampColumn()
  created_at!: Date;
}
