import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

export const HITL_REVIEW_KINDS = ['instructions_edit', 'worktree_merge'] as const;
export type HitlReviewKind = (typeof HITL_REVIEW_KINDS)[number];
/** pending until the person decides; applied, declined (dismissed or not approved) or conflict (the world changed meanwhile). */
export type HitlReviewStatus = 'pending' | 'applied' | 'declined' | 'conflict';

/**
 * A change that waits for a person's approval, asked through a HITL request:
 * an edit of an instruction file committed in the repository, or a worktree
 * merge (require_merge_approval). `payload` is the change as it was shown.
 */
@Entity('hitl_reviews')
export class HitlReview {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @IdColumn()
  hitl_request_id!: string;

  @Column('text')
  kind!: HitlReviewKind;

  /** What the change is about: the file name, the worktree id. */
  @Column('text')
  subject!: string;

  /** JSON: what the change needs when it is applied. */
  @Column('text')
  payload!: string;

  @Column('text')
  status!: HitlReviewStatus;

  /** Why it ended as it did (the conflict, the answer that declined). */
  @Column({ type: 'text', nullable: true })
  outcome!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn({ nullable: true })
  decided_at!: Date | null;
}
