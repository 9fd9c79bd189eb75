import { EntityManager } from 'typeorm';
import { bindParams, Dialect, sqlTimestamp } from '../../../libs/tenancy';
import { ReaderKind } from './message-cursor.entity';
import { RecipientKind } from './message.entity';
import { MessageRow } from './message.view';

export interface Reader {
  kind: ReaderKind;
  /** Session id or agent name. */
  name: string;
}

const COLUMNS = 'id, project_id, seq, sender, sender_session_id, recipient_kind, recipient, body, idempotency_key, created_at';
const prefixed = (table: string) =>
  COLUMNS.split(', ')
    .map((c) => `${table}.${c}`)
    .join(', ');

/** What one reader has waiting. */
export interface PendingOf {
  rows: MessageRow[];
  ackedSeq: number;
  /** The project's last seq, read in the same statement. */
  lastSeq: number;
}

/** One key per reader. */
export const readerKey = (reader: Reader) => `${reader.kind}:${reader.name}`;

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
  async pending(m: EntityManager, projectId: string, reader: Reader, limit: number): Promise<{ rows: MessageRow[]; ackedSeq: number; lastSeq: number }> {
    const rows: (Omit<MessageRow, 'id'> & { id: string | null; acked_seq: string | number; last_seq: string | number | null })[] = await this.query(
      m,
      // Two index range scans (messages_recipient_ix), each from where this reader stands, rather than
      // one scan of every message after the acknowledged one: a reader that never acknowledged
      // would otherwise read the whole project each time.
      `WITH c AS (SELECT acked_seq, start_seq FROM message_cursors WHERE project_id = $1 AND reader_kind = $2 AND reader = $3)
       SELECT c.acked_seq, (SELECT s.last_seq FROM message_sequences s WHERE s.project_id = $1) AS last_seq,
              msg.id, msg.project_id, msg.seq, msg.sender, msg.sender_session_id, msg.recipient_kind, msg.recipient, msg.body, msg.idempotency_key, msg.created_at
         FROM c
         LEFT JOIN (
           SELECT * FROM (
             SELECT ${COLUMNS} FROM messages
              WHERE project_id = $1 AND recipient_kind = $2 AND recipient = $3 AND seq > (SELECT acked_seq FROM c)
              ORDER BY seq LIMIT $4) own
           UNION ALL
           SELECT * FROM (
             SELECT ${COLUMNS} FROM messages
              WHERE project_id = $1 AND recipient_kind = 'project' AND recipient IS NULL
                AND seq > (SELECT CASE WHEN acked_seq > start_seq THEN acked_seq ELSE start_seq END FROM c)
                -- a broadcast does not come back to the session that sent it
                AND NOT ($2 = 'session' AND sender_session_id IS NOT NULL AND CAST(sender_session_id AS text) = $3)
              ORDER BY seq LIMIT $4) everyone
         ) msg ON 1 = 1
        ORDER BY msg.seq
        LIMIT $4`,
      [projectId, reader.kind, reader.name, limit],
    );
    return {
      rows: rows.filter((r): r is MessageRow & { acked_seq: string | number; last_seq: string | number | null } => r.id !== null),
      ackedSeq: Number(rows[0]?.acked_seq ?? 0),
      // Read in the same statement as the messages: everything up to it is in `rows` or not for this reader.
      lastSeq: Number(rows[0]?.last_seq ?? 0),
    };
  }

  /**
   * `pending` for many readers of one project in one statement (readers woken together by one
   * broadcast read once, not once each): per reader its unacknowledged messages in order, at
   * most `limit`, its acknowledged seq and the project's last seq. A reader without a cursor is
   * missing from the answer.
   */
  async pendingMany(m: EntityManager, projectId: string, readers: Reader[], limit: number): Promise<Map<string, PendingOf>> {
    if (readers.length === 0) return new Map();
    const params: unknown[] = [projectId, limit];
    // One list per kind, each its own range of the cursors' primary key (project, kind, reader):
    // an OR of the two made the database read every cursor of the project, once per use of `c`.
    const cursorsOf = (kind: ReaderKind) => {
      const names = readers.filter((r) => r.kind === kind).map((r) => r.name);
      if (names.length === 0) return [];
      const list = names.map((name) => `$${params.push(name)}`).join(', ');
      return [`SELECT reader_kind, reader, acked_seq, start_seq FROM message_cursors WHERE project_id = $1 AND reader_kind = '${kind}' AND reader IN (${list})`];
    };
    const cursors = [...cursorsOf('session'), ...cursorsOf('agent')].join(' UNION ALL ');
    const nothing = COLUMNS.split(', ')
      .map((c) => `NULL AS ${c}`)
      .join(', ');
    const rows: (Omit<MessageRow, 'id'> & { r_kind: ReaderKind; r_name: string; id: string | null; acked_seq: string | number | null; last_seq: string | number | null })[] =
      await this.query(
        m,
        // Per reader the same two index range scans as `pending`, numbered by seq so each keeps `limit`.
        // The answer is one row per reader (its cursor, no message) and one row per message
        // (no cursor), not a join of the two: matching every reader against every numbered
        // message cost as much as all the rest.
        `WITH c AS (${cursors}),
              mine AS (
                SELECT c.reader_kind AS r_kind, c.reader AS r_name, ${prefixed('msg')} FROM c
                  JOIN messages msg ON msg.project_id = $1 AND msg.recipient_kind = c.reader_kind AND msg.recipient = c.reader AND msg.seq > c.acked_seq
                UNION ALL
                SELECT c.reader_kind, c.reader, ${prefixed('msg')} FROM c
                  JOIN messages msg ON msg.project_id = $1 AND msg.recipient_kind = 'project' AND msg.recipient IS NULL
                   AND msg.seq > CASE WHEN c.acked_seq > c.start_seq THEN c.acked_seq ELSE c.start_seq END
                   -- a broadcast does not come back to the session that sent it
                   AND NOT (c.reader_kind = 'session' AND msg.sender_session_id IS NOT NULL AND CAST(msg.sender_session_id AS text) = c.reader)),
              numbered AS (SELECT mine.*, ROW_NUMBER() OVER (PARTITION BY r_kind, r_name ORDER BY seq) AS rn FROM mine)
         SELECT c.reader_kind AS r_kind, c.reader AS r_name, c.acked_seq, (SELECT s.last_seq FROM message_sequences s WHERE s.project_id = $1) AS last_seq, ${nothing}
           FROM c
         UNION ALL
         SELECT n.r_kind, n.r_name, NULL, NULL, ${prefixed('n')} FROM numbered n WHERE n.rn <= $2
          ORDER BY r_kind, r_name, seq`,
        params,
      );
    const answer = new Map<string, PendingOf>();
    const entryOf = (kind: ReaderKind, name: string) => {
      const key = readerKey({ kind, name });
      let entry = answer.get(key);
      if (!entry) {
        entry = { rows: [], ackedSeq: 0, lastSeq: 0 };
        answer.set(key, entry);
      }
      return entry;
    };
    // A reader's messages come in seq order; its cursor row may sort before or after them.
    for (const row of rows) {
      const entry = entryOf(row.r_kind, row.r_name);
      if (row.id === null) {
        entry.ackedSeq = Number(row.acked_seq);
        entry.lastSeq = Number(row.last_seq ?? 0);
      } else {
        const { r_kind: _k, r_name: _n, acked_seq: _a, last_seq: _l, ...message } = row;
        entry.rows.push(message as MessageRow);
      }
    }
    return answer;
  }

  /**
   * The project's last seq, and the recipients of its messages after `since` up to it, in order,
   * at most `limit` (one statement each; the last seq first, so every message up to it is
   * committed and listed). What the shared read of a project's waiters needs.
   */
  async changesSince(
    m: EntityManager,
    projectId: string,
    since: number,
    limit: number,
  ): Promise<{ lastSeq: number; rows: { seq: number; kind: RecipientKind; recipient: string | null }[] }> {
    const lastSeq = await this.lastSeq(m, projectId);
    if (lastSeq <= since) return { lastSeq, rows: [] };
    const rows: { seq: string | number; recipient_kind: RecipientKind; recipient: string | null }[] = await this.query(
      m,
      'SELECT seq, recipient_kind, recipient FROM messages WHERE project_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4',
      [projectId, since, lastSeq, limit],
    );
    return { lastSeq, rows: rows.map((r) => ({ seq: Number(r.seq), kind: r.recipient_kind, recipient: r.recipient })) };
  }

  /** The project's messages, newest first, those before `beforeSeq` when given (older pages). */
  async recent(m: EntityManager, projectId: string, limit: number, beforeSeq?: number): Promise<MessageRow[]> {
    return this.query(
      m,
      `SELECT id, project_id, seq, sender, sender_session_id, recipient_kind, recipient, body, idempotency_key, created_at
         FROM messages WHERE project_id = $1 ${beforeSeq === undefined ? '' : 'AND seq < $3'}
        ORDER BY seq DESC LIMIT $2`,
      beforeSeq === undefined ? [projectId, limit] : [projectId, limit, beforeSeq],
    );
  }

  private query<T>(m: EntityManager, sql: string, params: unknown[]): Promise<T> {
    const [text, bound] = bindParams(this.dialect, sql, params);
    return m.query(text, bound);
  }
}
