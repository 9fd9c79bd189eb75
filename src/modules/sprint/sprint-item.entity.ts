import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { BlockerKind, Claimant, FailureMode, MilestoneType, SprintItemStatus, SprintOwner, SprintPriority } from './sprint.constants';

/**
 * A sprint item: the 29 fields of spec §2, plus what Baton needs to run
 * claims (who holds it, a sortable priority) and the prospect gate.
 */
@Entity('sprint_items')
export class SprintItem {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  /** Sprint bucket identifier. */
  @Column('text')
  version!: string;

  @Column('text')
  title!: string;

  @Column('text')
  status!: SprintItemStatus;

  @Column('text', { nullable: true })
  item_group!: string | null;

  @Column('text', { nullable: true })
  human_id!: string | null;

  @Column('text', { nullable: true })
  notes!: string | null;

  @IdColumn({ nullable: true })
  depends_on!: string | null;

  @Column('text')
  failure_mode!: FailureMode;

  @Column('text')
  milestone_type!: MilestoneType;

  @Column('text', { nullable: true })
  track!: string | null;

  @Column('text', { nullable: true })
  wave!: string | null;

  @Column('text')
  priority!: SprintPriority;

  /** PRIORITY_RANK of `priority`: lets the next-claimable pick walk an index in serving order. */
  @Column('integer')
  priority_rank!: number;

  @Column('text', { nullable: true })
  blocker_kind!: BlockerKind | null;

  @TimestampColumn({ nullable: true })
  deferred_until!: Date | null;

  /** JSON array of `<kind>:<name>` strings, normalised. */
  @Column('text')
  touches_resources!: string;

  @IdColumn({ nullable: true })
  parent_id!: string | null;

  @Column('text', { nullable: true })
  owner!: SprintOwner | null;

  @Column('integer')
  required_notes!: number;

  @Column('text')
  slug!: string;

  @Column('text')
  nickname!: string;

  @Column('text', { nullable: true })
  sprint_name!: string | null;

  @Column('integer')
  prospect_bypass!: number;

  @Column('integer')
  stall_count!: number;

  @Column('text', { nullable: true })
  pushed_to!: string | null;

  @IdColumn({ nullable: true })
  task_id!: string | null;

  @TimestampColumn({ nullable: true })
  claimed_at!: Date | null;

  @TimestampColumn({ nullable: true })
  completed_at!: Date | null;

  @TimestampColumn()
  added_at!: Date;

  /** The session holding the item while it is in progress. */
  @IdColumn({ nullable: true })
  claimed_by_session_id!: string | null;

  @Column('text', { nullable: true })
  claimant!: Claimant | null;

  /** JSON array of repository paths matched to the title at handoff time (spec §1 point 4). */
  @Column('text')
  touches_files!: string;

  /** JSON array of concrete locations a planner attached (`path[:line][#symbol]`): passes the prospect gate. */
  @Column('text')
  locations!: string;

  @TimestampColumn({ nullable: true })
  prospected_at!: Date | null;

  @TimestampColumn()
  updated_at!: Date;
}
