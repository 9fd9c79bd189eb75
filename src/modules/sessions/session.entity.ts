import { Column, Entity } from 'typeorm';
import { PrimaryIdColumn, IdColumn, TimestampColumn } from '../../database/columns';

export type SessionStatus = 'active' | 'closed';
/** `handoff`: a session Baton opens to hold the work a handoff carries until a session takes it over. */
export type SessionKind = 'interactive' | 'worker' | 'handoff';
/**
 * Why a session ended: closed by its owner or a Stop hook, swept after going silent, or (a
 * handoff's carrier) its work taken over by the session that accepted the handoff, or released
 * when the handoff expired unaccepted.
 */
export type SessionCloseReason = 'closed' | 'swept' | 'handed_off' | 'handoff_expired';

@Entity('sessions')
export class Session {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  name!: string;

  @Column('text')
  kind!: SessionKind;

  @Column('text')
  status!: SessionStatus;

  @Column('text')
  human_id!: string;

  /** Dashboard state set by PATCH /sessions/{id}: a small JSON object, stored as text. */
  @Column('text', { nullable: true })
  state!: string | null;

  @TimestampColumn()
  last_seen!: Date;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn({ nullable: true })
  closed_at!: Date | null;

  @Column('text', { nullable: true })
  close_reason!: SessionCloseReason | null;
}
