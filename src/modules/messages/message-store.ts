import { EntityManager } from 'typeorm';
import { bindParams, Dialect, sqlTimestamp } from '../../../libs/tenancy';
import { ReaderKind } from './message-cursor.entity';
import { MessageRow } from './message.view';

export interface Reader {
  kind: ReaderKind;
  /** Session id or agent name. */
  name: string;
}

/**
 * The SQL of messages, written once for both dialects. Kept apart from the
 * service so the rules read without the statements in the way.
 */
export class MessageStore {
  constructor(private readonly dialect: Dialect) {}

  /** The next number of a project's message order. The row lock makes concurrent senders take turns, so seq order is commit order. */
  async nextSeq(m: EntityManager, projectId: string): Promise<number> {
    const rows: { last_seq: string | number }[] = await this.query(
      m,
      `INSERT INTO message_sequences (project_id, last_seq) VALUES ($1, 1)
       ON CONFLICT (project_id) DO UPDATE SET last_seq = message_sequences.last_seq + 1
       RETURNING last_seq`,
      [projectId],
    );
    return Number(rows[0].last_seq);
  }

  async lastSeq(m: EntityManager, projectId: string): Promise<number> {
    const rows: { last_seq: string | number }[] = await this.query(m, 'SELECT last_seq FROM message_sequences WHERE project_id = $1', [projectId]);
    return Number(rows[0]?.last_seq ?? 0);
  }

  /** The last seq of the project's messages sent before `before` (what a new session does not receive of project-wide messages). */
  async lastSeqBefore(m: EntityManager, projectId: string, before: Date): Promise<number> {
    const rows: { s: string | number | null }[] = await this.query(m, 'SELECT MAX(seq) AS s FROM messages WHERE project_id = $1 AND created_at < $2', [
      projectId,
      sqlTimestamp(this.dialect, before),
    ]);
    return Number(rows[0]?.s ?? 0);
  }

  /** Creates the reader's cursor if it has none (two first reads at once create one). */
  async ensureCursor(m: EntityManager, projectId: string, reader: Reader, startSeq: number, now: Date): Promise<void> {
    await this.query(
      m,
      `INSERT INTO message_cursors (project_id, reader_kind, reader, acked_seq, start_seq, updated_at)
       VALUES ($1, $2, $3, 0, $4, $5) ON CONFLICT (project_id, reader_kind, reader) DO NOTHING`,
      [projectId, reader.kind, reader.name, startSeq, sqlTimestamp(this.dialect, now)],
    );
  }

  async hasCursor(m: EntityManager, projectId: string, reader: Reader): Promise<boolean> {
    const rows: unknown[] = await this.query(m, 'SELECT 1 FROM message_cursors WHERE project_id = $1 AND reader_kind = $2 AND reader = $3', [projectId, reader.kind, reader.name]);
    return rows.length > 0;
  }

  /** Moves the cursor forward to `through` (never back); returns where it stands. */
  async ack(m: EntityManager, projectId: string, reader: Reader, through: number, now: Date): Promise<number> {
    await this.query(
      m,
      `UPDATE message_cursors SET acked_seq = $4, updated_at = $5
        WHERE project_id = $1 AND reader_kind = $2 AND reader = $3 AND acked_seq < $4`,
      [projectId, reader.kind, reader.name, through, sqlTimestamp(this.dialect, now)],
    );
    const rows: { acked_seq: string | number }[] = await this.query(m, 'SELECT acked_seq FROM message_cursors WHERE project_id = $1 AND reader_kind = $2 AND reader = $3', [
      projectId,
      reader.kind,
      reader.name,
    ]);
    return Number(rows[0]?.acked_seq ?? 0);
  }

  /**
   * The reader's unacknowledged messages in order, one statement: those
   * addressed to it, and project-wide ones sent after it started reading.
   */
  async pending(m: EntityManager, projectId: string, reader: Reader, limit: number): Promise<{ rows: MessageRow[]; ackedSeq: number }> {
    const rows: (Omit<MessageRow, 'id'> & { id: string | null; acked_seq: string | number })[] = await this.query(
      m,
      `SELECT c.acked_seq, msg.id, msg.project_id, msg.seq, msg.sender, msg.sender_session_id, msg.recipient_kind, msg.recipient, msg.body, msg.idempotency_key, msg.created_at
         FROM message_cursors c
         LEFT JOIN messages msg ON msg.project_id = c.project_id AND msg.seq > c.acked_seq
              AND ((msg.recipient_kind = $2 AND msg.recipient = $3)
                   OR (msg.recipient_kind = 'project' AND msg.seq > c.start_seq
                       -- a broadcast does not come back to the session that sent it
                       AND NOT ($2 = 'session' AND msg.sender_session_id IS NOT NULL AND CAST(msg.sender_session_id AS text) = $3)))
        WHERE c.project_id = $1 AND c.reader_kind = $2 AND c.reader = $3
        ORDER BY msg.seq
        LIMIT $4`,
      [projectId, reader.kind, reader.name, limit],
    );
    return { rows: rows.filter((r): r is MessageRow & { acked_seq: string | number } => r.id !== null), ackedSeq: Number(rows[0]?.acked_seq ?? 0) };
  }

  private query<T>(m: EntityManager, sql: string, params: unknown[]): Promise<T> {
    const [text, bound] = bindParams(this.dialect, sql, params);
    return m.query(text, bound);
  }
}
