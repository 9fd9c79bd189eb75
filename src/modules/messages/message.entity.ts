import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';

export const RECIPIENT_KINDS = ['session', 'agent', 'project'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];

/** A message from one participant of a project to a session, a named agent or the whole project. Durable until the project goes. */
@Entity('messages')
export class Message {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  /** Position in the project's message order (1, 2, ...): a reader receives in this order. */
  @Column('bigint')
  seq!: string;

  @Column('text', { nullable: true })
  sender!: string | null;

  /** The sending session, when the sender named its session_id (checked: a session of the project). */
  @IdColumn({ nullable: true })
  sender_session_id!: string | null;

  @Column('text')
  recipient_kind!: RecipientKind;

  /** Session id or agent name; null for a project-wide message. */
  @Column('text', { nullable: true })
  recipient!: string | null;

  @Column('text')
  body!: string;

  @Column('text', { nullable: true })
  idempotency_key!: string | null;

  @TimestampColumn()
  created_at!: Date;
}
