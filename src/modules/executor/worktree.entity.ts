import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { WorktreeMergeStatus, WorktreeStatus } from './executor.constants';

/** A git worktree an executor made on a machine; `pending_cleanup` once its machine or session is gone. */
@Entity('worktrees')
export class Worktree {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn({ nullable: true })
  machine_id!: string | null;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text')
  path!: string;

  @Column({ type: 'text', nullable: true })
  branch!: string | null;

  @Column('text')
  status!: WorktreeStatus;

  @Column({ type: 'text', nullable: true })
  cleanup_reason!: string | null;

  /** The sprint item it was made for (auto_worktrees), if any. */
  @IdColumn({ nullable: true })
  sprint_item_id!: string | null;

  /** null until a merge is asked; `awaiting_approval` (require_merge_approval), then `approved` or `declined`. */
  @Column({ type: 'text', nullable: true })
  merge_status!: WorktreeMergeStatus | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
