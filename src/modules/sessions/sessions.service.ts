import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, LessThan } from 'typeorm';
import { bindParams, currentTenant, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { DomainEvents } from '../../common/events/domain-events';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { requireProject } from '../projects/require-project.util';
import { RegisterSessionDto } from './dto/register-session.dto';
import { UpdateSessionDto } from './dto/update-session.dto';
import { defaultHumanId } from './human-id.util';
import { Session, SessionCloseReason } from './session.entity';
import { SessionCloseHooks } from './session-close-hooks';
import { SessionNotices, SessionNoticeView } from './session-notices.service';
import { SessionView, toSessionView } from './session.view';
import { SessionError } from './sessions.errors';
import { findById } from '../../database/find-by-id';

/** A heartbeat: the session's last sight, if it is still active. */
const HEARTBEAT_SQL = "UPDATE sessions SET last_seen = $1 WHERE id = $2 AND status = 'active' RETURNING id";

const MAX_STATE_BYTES = 16 * 1024;
/** Sessions closed per sweep transaction batch: keeps one sweep of a busy tenant from holding locks long. */
const SWEEP_BATCH = 200;

/** The sessions the sweeper closes: silent since $1, or handoffs' carriers created before $2. */
const SWEEPABLE = `FROM sessions WHERE status = 'active'
  AND ((kind <> 'handoff' AND last_seen < $1) OR (kind = 'handoff' AND created_at < $2))`;
/** Closed sessions a project's list shows at most (include_closed). */
const CLOSED_LISTED = 50;

export interface CloseResult {
  session: SessionView;
  /** False when the session was already closed: closing is idempotent. */
  closed_now: boolean;
}

@Injectable()
export class SessionsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly closeHooks: SessionCloseHooks,
    private readonly events: RealtimeEvents,
    private readonly domainEvents: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly notices: SessionNotices,
  ) {}

  /** Registers a new active session. Its default name is unique: `<human>-<first 8 of its id>`. */
  async register(input: RegisterSessionDto): Promise<SessionView> {
    const now = this.clock.now();
    const id = randomUUID();
    const humanId = input.human_id ?? defaultHumanId(this.config.humanId);
    const session: Session = {
      id,
      project_id: input.project_id,
      name: input.name ?? `${humanId}-${id.slice(0, 8)}`,
      kind: input.kind ?? 'interactive',
      status: 'active',
      human_id: humanId,
      state: null,
      last_seen: now,
      created_at: now,
      closed_at: null,
      close_reason: null,
    };
    await this.db.transaction(async (m) => {
      await requireProject(m, input.project_id);
      await m.insert(Session, session);
    });
    this.publish('session_started', session);
    await this.domainEvents.emit('session.started', { session: toSessionView(session) });
    return toSessionView(session);
  }

  async get(id: string): Promise<SessionView> {
    return toSessionView(await this.db.read((m) => this.require(m, id)));
  }

  /** The active sessions of a project, most recently seen first; with `includeClosed`, then the most recently closed. */
  async listActive(projectId: string, includeClosed = false): Promise<SessionView[]> {
    const sessions = await this.db.read(async (m) => {
      await requireProject(m, projectId);
      const active = await m.find(Session, { where: { project_id: projectId, status: 'active' }, order: { last_seen: 'DESC', id: 'ASC' } });
      if (!includeClosed) return active;
      const closed = await m.find(Session, { where: { project_id: projectId, status: 'closed' }, order: { closed_at: 'DESC', id: 'ASC' }, take: CLOSED_LISTED });
      return [...active, ...closed];
    });
    return sessions.map(toSessionView);
  }

  /**
   * Refreshes last_seen. `ok` is false once the session is closed (its owner should start a new
   * one). `notices`: what the session lost since its last call (a lock, a claim), each told once.
   * The beat is one statement, a transaction of its own (one round trip on Postgres): sessions beat
   * often, and most beats find their session active. A beat that changes nothing reads the session
   * to tell a closed one from an unknown one (404).
   */
  async heartbeat(id: string): Promise<{ ok: boolean; status: 'active' | 'closed'; notices: SessionNoticeView[] }> {
    const now = this.clock.now();
    const [text, values] = bindParams(this.db.dialect, HEARTBEAT_SQL, [sqlTimestamp(this.db.dialect, now), id]);
    const beaten = (await this.db.writeStatement({ name: 'session_heartbeat', text, values })).length > 0;
    if (!beaten) {
      await this.db.read((m) => this.require(m, id));
      return { ok: false, status: 'closed', notices: [] };
    }
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'session_seen', data: { session_id: id, last_seen: now.toISOString() } });
    return { ok: true, status: 'active', notices: await this.notices.take(id) };
  }

  async update(id: string, input: UpdateSessionDto): Promise<SessionView> {
    const state = input.state === undefined ? undefined : JSON.stringify(input.state);
    if (state !== undefined && Buffer.byteLength(state) > MAX_STATE_BYTES) {
      throw RequestError.invalidInput(`state must be at most ${MAX_STATE_BYTES} bytes of JSON`);
    }
    const session = await this.db.transaction(async (m) => {
      const found = await this.require(m, id);
      if (input.name !== undefined) found.name = input.name;
      if (state !== undefined) found.state = state;
      found.last_seen = found.status === 'active' ? this.clock.now() : found.last_seen;
      await m.update(Session, { id }, { name: found.name, state: found.state, last_seen: found.last_seen });
      return found;
    });
    return toSessionView(session);
  }

  /**
   * Ends a session: status closed, then every registered close hook (file
   * locks released, in-progress work re-queued) in the same transaction.
   * Closing a closed session changes nothing.
   */
  async close(id: string, reason: SessionCloseReason = 'closed'): Promise<CloseResult> {
    await this.closeHooks.prepareAll();
    const result = await this.db.transaction(async (m) => {
      const closedNow = await this.closeIn(m, id, reason);
      return { session: await this.require(m, id), closedNow };
    });
    if (result.closedNow) this.publish('session_closed', result.session);
    return { session: toSessionView(result.session), closed_now: result.closedNow };
  }

  /**
   * Opens the session that holds what a handoff carries until a session takes it over: kind
   * `handoff`, named after the handoff, by the author's human. It is never swept as silent; the
   * sweeper closes it when its handoff's lifetime (SERVICE_HANDOFF_TTL_SECONDS from its creation,
   * the handoff's own) is over (`handoff_expired`), releasing whatever it still holds.
   */
  async openCarrier(m: EntityManager, author: Session, handoffId: string): Promise<Session> {
    const now = this.clock.now();
    const carrier: Session = {
      id: randomUUID(),
      project_id: author.project_id,
      name: `handoff-${handoffId.slice(0, 8)}`,
      kind: 'handoff',
      status: 'active',
      human_id: author.human_id,
      state: null,
      last_seen: now,
      created_at: now,
      closed_at: null,
      close_reason: null,
    };
    await m.insert(Session, carrier);
    return carrier;
  }

  /** Closes `id`, if active, inside the caller's transaction (its close hooks run there too). */
  closeWithin(m: EntityManager, id: string, reason: SessionCloseReason): Promise<boolean> {
    return this.closeIn(m, id, reason);
  }

  /**
   * Closes the current tenant's sessions silent since before `cutoff`, with the
   * same effects as a close, and the carriers of handoffs that expired unaccepted.
   * Each close is conditional on the session still being silent, so a heartbeat
   * that lands mid-sweep wins and two sweepers never close one session twice.
   */
  async sweep(cutoff: Date): Promise<number> {
    let swept = 0;
    const now = this.clock.now();
    const dialect = this.db.dialect;
    const bounds = [sqlTimestamp(dialect, cutoff), sqlTimestamp(dialect, new Date(now.getTime() - this.config.handoffTtlS * 1000))];
    // Most tenants have none at any one sweep: a read says so, without a transaction's connection.
    const [anyText, anyValues] = bindParams(dialect, `SELECT 1 ${SWEEPABLE} LIMIT 1`, bounds);
    const any: unknown[] = await this.db.read((m) => m.query(anyText, anyValues));
    if (any.length === 0) return 0;
    const [text, values] = bindParams(dialect, `SELECT id, kind ${SWEEPABLE} ORDER BY last_seen LIMIT ${SWEEP_BATCH}`, bounds);
    await this.closeHooks.prepareAll();
    for (;;) {
      const closed = await this.db.transaction(async (m) => {
        const stale: Pick<Session, 'id' | 'kind'>[] = await m.query(text, values);
        const done: Session[] = [];
        for (const { id, kind } of stale) {
          const closedNow = kind === 'handoff' ? await this.closeIn(m, id, 'handoff_expired') : await this.closeIn(m, id, 'swept', cutoff);
          if (closedNow) done.push(await this.require(m, id));
        }
        return { done, more: stale.length === SWEEP_BATCH };
      });
      closed.done.forEach((s) => this.publish('session_closed', s));
      swept += closed.done.length;
      if (!closed.more) return swept;
    }
  }

  /** Marks `id` closed if it is active (and, for the sweeper, still silent) and runs the close hooks. */
  private async closeIn(m: EntityManager, id: string, reason: SessionCloseReason, silentBefore?: Date): Promise<boolean> {
    const now = this.clock.now();
    const where = silentBefore ? { id, status: 'active' as const, last_seen: LessThan(silentBefore) } : { id, status: 'active' as const };
    const result = await m.update(Session, where, { status: 'closed', closed_at: now, close_reason: reason });
    if (!result.affected) {
      await this.require(m, id);
      return false;
    }
    const session = await this.require(m, id);
    await this.closeHooks.runAll(m, session, reason);
    return true;
  }

  private async require(m: EntityManager, id: string): Promise<Session> {
    const session = await findById(m, Session, id);
    if (!session) throw SessionError.notFound(id);
    return session;
  }

  private publish(event: 'session_started' | 'session_closed', session: Session) {
    this.events.publish({ tenantId: currentTenant().tenantId, event, data: { session: toSessionView(session) } });
  }
}
