import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, TimestampColumn } from '../../database/columns';

/**
 * A project's orphan reaper: whether it is on, its last pass and what its passes marked. `last_run_at`
 * is also the lease: a pass starts only by moving it forward with a conditional
 * UPDATE, so one process runs it per interval however many share the database.
 */
@Entity('orphan_reapers')
export class OrphanReaperState {
  @PrimaryIdColumn()
  project_id!: string;

  @Column('boolean')
  enabled!: boolean;

  @TimestampColumn({ nullable: true })
  last_run_at!: Date | null;

  @Column('integer')
  run_count!: number;

  /** Runs its passes have marked orphaned, in all. */
  @Column('integer')
  orphaned_runs_total!: number;

  @Column('integer')
  flagged_worktrees_total!: number;

  @TimestampColumn()
  updated_at!: Date;
}
