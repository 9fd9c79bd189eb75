import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimestampColumn } from '../../database/columns';

export type ReaderKind = 'session' | 'agent';

/**
 * How far one reader (a session or a named agent) of a project has
 * acknowledged: every message for it up to `acked_seq` is done and never comes
 * again. Project-wide messages count for a reader only after `start_seq` (what
 * the project had sent before the reader existed is not its mail).
 */
@Entity('message_cursors')
export class MessageCursor {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  project_id!: string;

  @PrimaryColumn('text')
  reader_kind!: ReaderKind;

  @PrimaryColumn('text')
  reader!: string;

  @Column('bigint')
  acked_seq!: string;

  @Column('bigint')
  start_seq!: string;

  @TimestampColumn()
  updated_at!: Date;
}
