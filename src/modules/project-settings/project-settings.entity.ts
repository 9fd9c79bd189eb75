import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/**
 * The legacy per-project settings (spec §2 Profile layer): one row per
 * project, created on first write. They are the project scope of the profile
 * for the seven legacy fields; the three new fields live in a profile-layer row.
 */
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

  /**
   * JSON array of the flat field names the project sets itself (the other
   * columns hold Baton's defaults and let the layers below show through).
   * Null on rows written before profile layers existed: every field is set.
   */
  @Column('text', { nullable: true })
  set_fields!: string | null;

  /** JSON object: override_reason and loosened dials of the last write (see LayerProvenance). */
  @Column('text', { nullable: true })
  provenance!: string | null;

  /** Goes up on every write; part of the profile's generation key. */
  @Column('integer')
  revision!: number;

  @TimestampColumn()
  updated_at!: Date;
}
