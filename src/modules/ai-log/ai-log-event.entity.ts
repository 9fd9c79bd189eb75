import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { IdColumn, TimestampColumn } from '../../database/columns';

export type AiLogEventKind = 'session_start' | 'tool_call' | 'handoff_correction' | 'sprint_verification';
export const AI_LOG_EVENT_KINDS: AiLogEventKind[] = ['session_start', 'tool_call', 'handoff_correction', 'sprint_verification'];

/**
 * One entry of the AI-log, the canonical activity record of a tenant. Written
 * in batches by AiLogRecorder with raw SQL; `seq` is assigned by the database
 * and orders the events for export.
 */
@Entity('ai_log_events')
export class AiLogEvent {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  seq!: string;

  @IdColumn()
  id!: string;

  @Column('text')
  kind!: AiLogEventKind;

  /** Null for a call that named neither a project nor a session of one. */
  @IdColumn({ nullable: true })
  project_id!: string | null;

  @IdColumn({ nullable: true })
  session_id!: string | null;

  @Column('text', { nullable: true })
  tool!: string | null;

  @Column('text', { nullable: true })
  outcome!: 'ok' | 'error' | null;

  @Column('text', { nullable: true })
  error_code!: string | null;

  @Column('double precision', { nullable: true })
  duration_ms!: number | null;

  @Column('text')
  summary!: string;

  /** JSON object: redacted arguments of a tool call, the session of a start, the correction. */
  @Column('text')
  data!: string;

  @TimestampColumn()
  occurred_at!: Date;
}
