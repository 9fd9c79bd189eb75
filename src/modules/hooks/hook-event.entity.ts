import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

export type HookEventName = 'session-start' | 'stop';
export type HookOutcome = 'ok' | 'error';

/** One call of a hook route and what it did, for GET /hooks/diagnostics. */
@Entity('hook_events')
export class HookEvent {
  @PrimaryIdColumn()
  id!: string;

  @Column('text')
  event!: HookEventName;

  @Column('text')
  outcome!: HookOutcome;

  @Column('text')
  detail!: string;

  @IdColumn({ nullable: true })
  project_id!: string | null;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text', { nullable: true })
  assistant_session_id!: string | null;

  @Column('text', { nullable: true })
  source!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
