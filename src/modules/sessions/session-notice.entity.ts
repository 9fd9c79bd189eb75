import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

export type SessionNoticeKind = 'lock_expired' | 'lock_taken' | 'claim_lost';

/** What a session lost while it was not looking, owed to it once (its next heartbeat or tool answer). */
@Entity('session_notices')
export class SessionNotice {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  /** The session that lost the lock or the claim: the only one ever told. */
  @IdColumn()
  session_id!: string;

  @Column('text')
  kind!: SessionNoticeKind;

  @Column('text', { nullable: true })
  file_path!: string | null;

  @IdColumn({ nullable: true })
  item_id!: string | null;

  /** The item's slug (or the task's description) as it was when the claim was lost. */
  @Column('text', { nullable: true })
  item_ref!: string | null;

  /** The queued task whose claim was lost (claim_lost of a task; item_id is then null). */
  @IdColumn({ nullable: true })
  task_id!: string | null;

  @IdColumn({ nullable: true })
  taken_by_session_id!: string | null;

  @Column('text', { nullable: true })
  taken_by_session_name!: string | null;

  @TimestampColumn()
  occurred_at!: Date;

  @TimestampColumn({ nullable: true })
  delivered_at!: Date | null;
}
