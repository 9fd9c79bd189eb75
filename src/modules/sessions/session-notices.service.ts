import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In, IsNull } from 'typeorm';
import { bindParams, fromSqlTimestamp, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { DomainEvents } from '../../common/events/domain-events';
import { ToolAnswerExtras } from '../../mcp/tool-answer-extras';
import { Session } from './session.entity';
import { SessionNotice, SessionNoticeKind } from './session-notice.entity';

/** What a session lost, as Baton tells it. */
export interface SessionNoticeView {
  kind: SessionNoticeKind;
  /** The file (lock_expired, lock_taken) or null. */
  file_path: string | null;
  /** The sprint item (claim_lost of an item) or null. */
  item_id: string | null;
  item: string | null;
  /** The task and its description (claim_lost of a task) or null. */
  task_id: string | null;
  task: string | null;
  /** The session that took it (null when a lock simply lapsed, or a person took it from the dashboard). */
  taken_by_session_id: string | null;
  taken_by_session_name: string | null;
  at: string;
  detail: string;
}

/** A notice to record: the losing session and what it lost. */
export interface NewNotice {
  projectId: string;
  sessionId: string;
  kind: SessionNoticeKind;
  filePath?: string;
  itemId?: string;
  /** The item's slug, or the task's description. */
  itemRef?: string;
  taskId?: string;
  /** The session that took it (its name is looked up), or null. */
  takenById?: string | null;
  at: Date;
}

/** A notice recorded for a session of a project, to be announced once its transaction has committed. */
export interface RecordedNotice {
  projectId: string;
  sessionId: string;
  notice: SessionNoticeView;
}

/**
 * The notices a session is owed when its file lock lapses or is taken by force, or its claimed
 * sprint item or queued task is taken over or put back: recorded in the transaction that took
 * it, delivered once — on the session's next heartbeat or in the next MCP tool answer that names
 * it — and announced (`session.notified`) so that a message wakes a session waiting for one.
 * Only the session that lost something is ever told.
 */
@Injectable()
export class SessionNotices implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly domainEvents: DomainEvents,
    @Optional() private readonly answerExtras?: ToolAnswerExtras,
  ) {}

  onModuleInit() {
    this.answerExtras?.register('notices', async (args) => {
      const sessionId = typeof args.session_id === 'string' ? args.session_id.toLowerCase() : null;
      if (!sessionId || !UUID.test(sessionId)) return undefined;
      const notices = await this.take(sessionId);
      return notices.length ? { notices } : undefined;
    });
  }

  /**
   * Records notices inside the caller's transaction, for live sessions other than `except`
   * (whoever took it is not told about itself; a closed session has nobody left to tell).
   * Answers what was recorded, to be announced once the transaction has committed.
   */
  async record(m: EntityManager, notices: NewNotice[]): Promise<RecordedNotice[]> {
    if (notices.length === 0) return [];
    const ids = [...new Set(notices.flatMap((n) => [n.sessionId, n.takenById ?? n.sessionId]))];
    const sessions = await m.find(Session, { select: { id: true, name: true, kind: true, status: true }, where: { id: In(ids) } });
    const names = new Map(sessions.map((s) => [s.id, s.name]));
    const live = new Set(sessions.filter((s) => s.status === 'active' && s.kind !== 'handoff').map((s) => s.id));
    const recorded: RecordedNotice[] = [];
    for (const n of notices) {
      if (!live.has(n.sessionId) || n.takenById === n.sessionId) continue;
      const row: SessionNotice = {
        id: randomUUID(),
        project_id: n.projectId,
        session_id: n.sessionId,
        kind: n.kind,
        file_path: n.filePath ?? null,
        item_id: n.itemId ?? null,
        item_ref: n.itemRef === undefined ? null : n.itemRef.slice(0, ITEM_REF_MAX),
        task_id: n.taskId ?? null,
        taken_by_session_id: n.takenById ?? null,
        taken_by_session_name: n.takenById ? (names.get(n.takenById) ?? null) : null,
        occurred_at: n.at,
        delivered_at: null,
      };
      await m.insert(SessionNotice, row);
      recorded.push({ projectId: n.projectId, sessionId: n.sessionId, notice: toNoticeView(row) });
    }
    return recorded;
  }

  /** After the recording transaction committed: the messages module pushes each to its session. */
  async announce(recorded: RecordedNotice[]): Promise<void> {
    for (const r of recorded) await this.domainEvents.emit('session.notified', { project_id: r.projectId, session_id: r.sessionId, notice: r.notice });
  }

  /** Records and announces in a transaction of its own (the sweeper's lapsed locks). */
  async recordNow(notices: NewNotice[]): Promise<void> {
    await this.announce(await this.db.transaction((m) => this.record(m, notices)));
  }

  /**
   * The session's undelivered notices, oldest first, marked delivered: each is answered once,
   * whichever call of the session (on whichever instance) comes first.
   */
  async take(sessionId: string): Promise<SessionNoticeView[]> {
    const pending = await this.db.read((m) => m.find(SessionNotice, { select: { id: true }, where: { session_id: sessionId, delivered_at: IsNull() }, take: 100 }));
    if (pending.length === 0) return [];
    const dialect = this.db.dialect;
    const now = this.clock.now();
    const rows = await this.db.transaction(async (m) => {
      const ids = pending.map((p) => p.id);
      const marks = ids.map((_, i) => `$${i + 3}`).join(', ');
      const [sql, params] = bindParams(
        dialect,
        `UPDATE session_notices SET delivered_at = $1 WHERE session_id = $2 AND delivered_at IS NULL AND id IN (${marks})
         RETURNING id, project_id, session_id, kind, file_path, item_id, item_ref, task_id, taken_by_session_id, taken_by_session_name, occurred_at`,
        [sqlTimestamp(dialect, now), sessionId, ...ids],
      );
      const result: unknown = await m.query(sql, params);
      // Postgres through TypeORM answers [rows, count] for an UPDATE; SQLite the rows.
      return (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as SessionNotice[];
    });
    return rows
      .map((r) => ({ ...r, occurred_at: fromSqlTimestamp(r.occurred_at as unknown as string), delivered_at: now }))
      .sort((a, b) => a.occurred_at.getTime() - b.occurred_at.getTime())
      .map(toNoticeView);
  }
}

/** A task's description is named in its notice up to this length. */
const ITEM_REF_MAX = 200;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function toNoticeView(row: SessionNotice): SessionNoticeView {
  const at = new Date(row.occurred_at).toISOString();
  const by = row.taken_by_session_id ? `session ${row.taken_by_session_name ?? row.taken_by_session_id} (${row.taken_by_session_id})` : null;
  let detail: string;
  if (row.kind === 'lock_expired') {
    detail = by
      ? `your lock on ${row.file_path} had expired and ${by} claimed the file at ${at}`
      : `your lock on ${row.file_path} expired at ${at}; claim the file again before editing it`;
  } else if (row.kind === 'lock_taken') {
    detail = `your lock on ${row.file_path} was taken by ${by ?? 'a person, from the dashboard'} at ${at}`;
  } else if (row.task_id) {
    detail = `you no longer hold task ${row.task_id} (${row.item_ref ?? 'no description'}): ${by ? `${by} took it` : 'it was put back in the queue for another claimer'} at ${at}`;
  } else {
    detail = `you no longer hold sprint item ${row.item_ref ?? row.item_id}: ${by ? `${by} took it` : 'it was put back or changed'} at ${at}`;
  }
  return {
    kind: row.kind,
    file_path: row.file_path,
    item_id: row.task_id ? null : row.item_id,
    item: row.task_id ? null : row.item_ref,
    task_id: row.task_id ?? null,
    task: row.task_id ? row.item_ref : null,
    taken_by_session_id: row.taken_by_session_id,
    taken_by_session_name: row.taken_by_session_name,
    at,
    detail,
  };
}
