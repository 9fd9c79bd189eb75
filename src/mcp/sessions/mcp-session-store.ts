import { Injectable } from '@nestjs/common';
import type { ClientCapabilities, JSONRPCMessage, LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { In, LessThan, MoreThan } from 'typeorm';
import { bindParams, currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { TurnBatches } from '../../common/lifecycle/turn-batches';
import { PushService } from '../../modules/push/push.service';
import { McpSessionState } from './mcp-session-context';
import { McpElicitation, McpSessionEvent, McpSessionRow, McpSubscription } from './mcp-session.entities';

/** How long a queued event stays for a stream to resume after it. */
const EVENT_RETENTION_MS = 60 * 60 * 1000;
/** At most one sweep of old events per tenant and process in this time. */
const PRUNE_EVERY_MS = 60 * 1000;
/** A session no request or stream has used for this long is ended. */
const SESSION_IDLE_MS = 24 * 60 * 60 * 1000;
/** A session's last use is written at most this often. */
const TOUCH_EVERY_MS = 60 * 1000;
/** How long a session read from the database is served from this process's memory. */
const SESSION_CACHE_MS = 5_000;
/** Sessions kept in memory per process. */
const SESSION_CACHE_MAX = 10_000;
/** Events a stream reads in one go. */
const READ_BATCH = 200;

interface CachedSession {
  owner: string;
  state: McpSessionState;
  /** When it was read from the database, and when its last use was written there (epoch ms). */
  readAt: number;
  seenAt: number;
}

export const sessionTopic = (sessionId: string) => `mcp-session:${sessionId}`;

/** A session subscribed to a resource of a project. */
export type Subscriber = Pick<McpSubscription, 'session_id' | 'uri' | 'kind'>;

/**
 * Where MCP sessions live: the tenant's own database, so that every instance
 * reaches them (SQLite self-hosted, the tenant's schema hosted). A message for
 * a session's client is queued here and its stream is woken through push
 * (every instance, through Redis when configured); the stream reads the queue,
 * so a wake-up lost or a stream dropped loses nothing.
 */
@Injectable()
export class McpSessionStore {
  /** When this process last swept a tenant's old events, and its idle sessions. */
  private readonly pruned = new Map<string, number>();
  private readonly swept = new Map<string, number>();
  /** Sessions by `<tenant>|<id>`, in the order they were read. */
  private readonly cache = new Map<string, CachedSession>();
  /** The subscribers of a project that changes made in one turn ask for: one read per tenant and project. */
  private readonly subscriberReads = new TurnBatches<string, string, string[], Subscriber[]>((projectId, asked) => this.readSubscribers(projectId, asked));

  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly push: PushService,
  ) {}

  /** Opens a session; now and then also ends those idle for SESSION_IDLE_MS (their clients went away without DELETE). */
  async create(row: Omit<McpSessionRow, 'created_at' | 'last_seen_at'>): Promise<void> {
    const now = this.clock.now();
    const tenantId = currentTenant().tenantId;
    const sweep = now.getTime() - (this.swept.get(tenantId) ?? 0) > PRUNE_EVERY_MS;
    if (sweep) this.swept.set(tenantId, now.getTime());
    await this.db.transaction(async (m) => {
      if (sweep) await m.delete(McpSessionRow, { last_seen_at: LessThan(new Date(now.getTime() - SESSION_IDLE_MS)) });
      await m.insert(McpSessionRow, { ...row, created_at: now, last_seen_at: now });
    });
  }

  /**
   * The session `id` opened with the credential hashed as `owner`; undefined for another
   * credential's or an unknown one. Read from the database at most every SESSION_CACHE_MS per
   * process: a change made on this instance (log level, end) shows at once, one made on another
   * instance within that time.
   */
  async find(id: string, owner: string): Promise<McpSessionState | undefined> {
    const tenantId = currentTenant().tenantId;
    const key = `${tenantId}|${id}`;
    const now = this.clock.now().getTime();
    let entry = this.cache.get(key);
    if (!entry || now - entry.readAt > SESSION_CACHE_MS) {
      const row = await this.db.read((m) => m.findOneBy(McpSessionRow, { id }));
      if (!row) {
        this.cache.delete(key);
        return undefined;
      }
      entry = {
        owner: row.owner,
        readAt: now,
        seenAt: row.last_seen_at.getTime(),
        state: {
          id: row.id,
          tenantId,
          clientName: row.client_name,
          capabilities: JSON.parse(row.client_capabilities) as ClientCapabilities,
          logLevel: row.log_level as LoggingLevel,
        },
      };
      this.remember(key, entry);
    }
    if (entry.owner !== owner) return undefined;
    if (now - entry.seenAt > TOUCH_EVERY_MS) {
      entry.seenAt = now;
      await this.touch(id, new Date(now));
    }
    return entry.state;
  }

  /** Ends a session: its subscriptions, questions and queued events go with it. */
  async remove(id: string): Promise<void> {
    this.cache.delete(`${currentTenant().tenantId}|${id}`);
    await this.db.transaction((m) => m.delete(McpSessionRow, { id }));
  }

  async setLogLevel(id: string, level: LoggingLevel): Promise<void> {
    await this.db.transaction((m) => m.update(McpSessionRow, { id }, { log_level: level }));
    const entry = this.cache.get(`${currentTenant().tenantId}|${id}`);
    if (entry) entry.state = { ...entry.state, logLevel: level };
  }

  private remember(key: string, entry: CachedSession): void {
    this.cache.delete(key);
    // Oldest first: past the cap, the longest-unread entry goes.
    if (this.cache.size >= SESSION_CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(key, entry);
  }

  async subscribe(sessionId: string, uri: string, projectId: string, kind: string): Promise<void> {
    await this.db.transaction(async (m) => {
      if (await m.existsBy(McpSubscription, { session_id: sessionId, uri })) return;
      await m.insert(McpSubscription, { session_id: sessionId, uri, project_id: projectId, kind, created_at: this.clock.now() });
    });
  }

  async unsubscribe(sessionId: string, uri: string): Promise<void> {
    await this.db.transaction((m) => m.delete(McpSubscription, { session_id: sessionId, uri }));
  }

  /** The subscriptions to resources of `kinds` of one project, in any session of the tenant; what changes of one turn ask is read once. */
  subscribersOf(projectId: string, kinds: string[]): Promise<Subscriber[]> {
    const key = kinds.join(',');
    return this.subscriberReads.ask(`${currentTenant().tenantId}|${projectId}`, projectId, key, kinds).then((rows) => rows ?? []);
  }

  /**
   * Runs in the async context of the batch's first ask (TurnBatches): the tenant whose project it
   * reads. Plain SQL: every change of every workspace comes through here.
   */
  private async readSubscribers(projectId: string, asked: Map<string, string[]>): Promise<Map<string, Subscriber[]>> {
    const kinds = [...new Set([...asked.values()].flat())];
    const [text, values] = bindParams(
      this.db.dialect,
      `SELECT session_id, uri, kind FROM mcp_subscriptions WHERE project_id = $1 AND kind IN (${kinds.map((_, i) => `$${i + 2}`).join(', ')})`,
      [projectId, ...kinds],
    );
    const rows: Subscriber[] = await this.db.read((m) => m.query(text, values));
    return new Map([...asked].map(([key, wanted]) => [key, rows.filter((row) => wanted.includes(row.kind))]));
  }

  async addElicitation(sessionId: string, requestId: string, hitlId: string): Promise<void> {
    await this.db.transaction((m) => m.insert(McpElicitation, { session_id: sessionId, request_id: requestId, hitl_id: hitlId, created_at: this.clock.now() }));
  }

  /** Removes and returns the open question `requestId` of a session (undefined when there is none: answered elsewhere, or never asked). */
  takeElicitation(sessionId: string, requestId: string): Promise<McpElicitation | undefined> {
    return this.db.transaction(async (m) => {
      const row = await m.findOneBy(McpElicitation, { session_id: sessionId, request_id: requestId });
      if (!row) return undefined;
      const { affected } = await m.delete(McpElicitation, { session_id: sessionId, request_id: requestId });
      return affected ? row : undefined;
    });
  }

  /** Removes and returns every open question of one HITL request, in every session. */
  takeElicitationsOf(hitlId: string): Promise<McpElicitation[]> {
    return this.db.transaction(async (m) => {
      const rows = await m.findBy(McpElicitation, { hitl_id: hitlId });
      if (rows.length > 0) await m.delete(McpElicitation, { hitl_id: hitlId });
      return rows;
    });
  }

  /** Queues messages for sessions' clients and wakes their streams, wherever they are open. */
  async enqueue(entries: { sessionId: string; message: JSONRPCMessage }[]): Promise<void> {
    if (entries.length === 0) return;
    const now = this.clock.now();
    const tenantId = currentTenant().tenantId;
    const queued = await this.db.transaction(async (m) => {
      // The sessions' rows, locked (Postgres FOR UPDATE, in id order): a session's messages get their ids in the
      // order their transactions commit, so a stream that has read id n never sees a smaller id commit later.
      // SQLite runs one transaction at a time. A session ended meanwhile is left out.
      const ids = [...new Set(entries.map((e) => e.sessionId))].sort();
      const postgres = m.connection.options.type === 'postgres';
      const live = await m.find(McpSessionRow, {
        select: { id: true },
        where: { id: In(ids) },
        order: { id: 'ASC' },
        ...(postgres && { lock: { mode: 'pessimistic_write' as const } }),
      });
      const alive = new Set(live.map((row) => row.id));
      const rows = entries.filter((e) => alive.has(e.sessionId));
      if (rows.length > 0) {
        await m.insert(
          McpSessionEvent,
          rows.map((e) => ({ session_id: e.sessionId, message: JSON.stringify(e.message), created_at: now })),
        );
      }
      const last = this.pruned.get(tenantId) ?? 0;
      if (now.getTime() - last > PRUNE_EVERY_MS) {
        this.pruned.set(tenantId, now.getTime());
        await m.delete(McpSessionEvent, { created_at: LessThan(new Date(now.getTime() - EVENT_RETENTION_MS)) });
      }
      return [...alive];
    });
    if (queued.length > 0) this.push.publish(tenantId, { wake: queued.map(sessionTopic) });
  }

  /** Events of a session queued after event `afterId`, oldest first. */
  async eventsAfter(sessionId: string, afterId: number): Promise<{ id: number; message: string }[]> {
    const rows = await this.db.read((m) => m.find(McpSessionEvent, { where: { session_id: sessionId, id: MoreThan(afterId) }, order: { id: 'ASC' }, take: READ_BATCH }));
    return rows.map((r) => ({ id: Number(r.id), message: r.message }));
  }

  /** Whether the session is still there; an open stream keeps it from being ended as idle. */
  async alive(sessionId: string): Promise<boolean> {
    const { affected } = await this.touch(sessionId, this.clock.now());
    return Boolean(affected);
  }

  private touch(id: string, now: Date) {
    return this.db.transaction((m) => m.update(McpSessionRow, { id }, { last_seen_at: now }));
  }
}
