import { Column, Entity } from 'typeorm';
import { IdColumn, PrimaryIdColumn, TimestampColumn } from '../../database/columns';
import { A2aTaskState } from './a2a.constants';

/** A task an external agent handed to a project over A2A: its first message, and where the team has taken it. */
@Entity('a2a_tasks')
export class A2aTask {
  @PrimaryIdColumn()
  id!: string;

  @IdColumn()
  project_id!: string;

  @Column('text')
  context_id!: string;

  /** The sender's messageId: unique per project, so a retried send answers the task it already made. */
  @Column('text')
  message_id!: string;

  @Column('text')
  state!: A2aTaskState;

  /** The first line of the message's text, for listings and the context block. */
  @Column('text')
  title!: string;

  /** The A2A message as received (protocol JSON). */
  @Column('text')
  message!: string;

  /** What the team answered when it last moved the task (shown to the sending agent as the status message). */
  @Column('text', { nullable: true })
  status_note!: string | null;

  /** Who sent it, as the sending agent named itself in the message metadata (`sender`), if it did. */
  @Column('text', { nullable: true })
  sender!: string | null;

  @Column('text', { nullable: true })
  updated_by!: string | null;

  @TimestampColumn()
  created_at!: Date;

  @TimestampColumn()
  updated_at!: Date;
}
