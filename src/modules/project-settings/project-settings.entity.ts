import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, IdColumn, TimestampColumn } from '../../database/columns';

/** The legacy per-project settings (spec §2 Profile layer): one row per project, created on first write. */
@Entity('project_settings')
export class ProjectSettingsRow {
  @PrimaryIdColumn()
  project_id!: string;

  @Column('integer')
  max_pinned_decisions!: number;

  @Column('boolean')
  hitl_auto_answer!: boolean;

  @Column('boolean')
  auto_worktrees!: boolean;

  @Column('boolean')
  require_merge_approval!: boolean;

  @Column('boolean')
  code_intel_enabled!: boolean;

  @Column('text')
  execution_mode!: string;

  /** JSON object of the executor_config.* sub-fields. */
  @Column('text')
  executor_config!: string;

  @TimestampColumn()
  updated_at!: Date;
}
