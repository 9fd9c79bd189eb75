import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { ShutdownDrain } from '../../common/lifecycle/shutdown-drain';
import type { JSONRPCMessage, LoggingLevel, ProgressToken } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { createHash, randomUUID } from 'node:crypto';
import { WakeRegistry } from '../../../libs/pubsub';
import { currentTenant, runWithTenant } from '../../../libs/tenancy';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PushService } from '../../modules/push/push.service';
import { mcpSdk } from '../sdk';
import { McpElicitations } from './mcp-elicitations.service';
import { logLevelPasses, McpSessionState, withMcpSession } from './mcp-session-context';
import { McpSessionStore, sessionTopic } from './mcp-session-store';

const SESSION_HEADER = 'mcp-session-id';
/** A session's messages pass from this level up until its client sends `logging/setLevel`. */
export const DEFAULT_LOG_LEVEL: LoggingLevel = 'info';
/** How often a call that carries a progress token and is still running reports it. */
const PROGRESS_EVERY_MS = 2000;
/** How often an idle stream checks that its session still exists (and marks it used). */
const ALIVE_CHECK_MS = 60 * 1000;
/** After a failed read of its queue, a stream tries again after this long. */
const RETRY_MS = 1000;

/**
 * MCP sessions on `POST /mcp` (Streamable HTTP with `Mcp-Session-Id`). An
 * `initialize` opens one; the client then sends the id with every request,
 * which any instance serves: the session is read from the tenant's database.
 * `GET /mcp` with the id is the session's event stream (notifications and
 * questions to the client), resumable with `Last-Event-ID` because every
 * message is queued in the database before it is sent. A request without the
 * header is the stateless request it always was, untouched.
 */
@Injectable()
export class McpSessions implements BeforeApplicationShutdown {
  private readonly logger = new Logger('mcp');
  private readonly streamFailures = new ThrottledLog(this.logger);
  /** The event streams open on this instance, ended when it stops (their clients resume on another). */
  private readonly streams = new Set<Response>();

  constructor(
    private readonly store: McpSessionStore,
    private readonly push: PushService,
    private readonly elicitations: McpElicitations,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    drain: ShutdownDrain,
  ) {
    // Stopping: the streams end at once, before the server waits for its connections.
    drain.onDrain(() => this.beforeApplicationShutdown());
  }

  /**
   * Serves a POST that opens a session or belongs to one, `serve` being how a
   * stateless request is answered; false when the POST is neither (it is then
   * served as before, by the caller).
   */
  async post(req: Request, res: Response, serve: () => Promise<void>): Promise<boolean> {
    const header = req.headers[SESSION_HEADER];
    if (header === undefined) {
      // The method is looked at first: a stateless tool call pays no schema check here.
      const method = (req.body as { method?: unknown } | null)?.method;
      if (method !== 'initialize' || !mcpSdk().isInitializeRequest(req.body)) return false;
      await this.open(req, res, serve);
      return true;
    }
    const session = await this.sessionOf(req, res, header);
    if (!session) return true;
    const body: unknown = req.body;
    const messages = Array.isArray(body) ? body : [body];
    if (messages.length > 0 && messages.every(isResponse)) {
      // The client's answers to what Baton asked it (elicitation/create), posted by any instance's stream.
      await withMcpSession(session, () => this.elicitations.answered(session, messages as JSONRPCMessage[]));
      res.status(202).end();
      return true;
    }
    await withMcpSession(session, async () => {
      await this.warnOfBudget(session, res);
      await this.withProgress(session, body, serve);
    });
    return true;
  }

  /**
   * Hosted, when this request leaves a tenth of the MCP budget (the budget guard has counted it and
   * set its headers), the session hears it once, at `warning`: the next calls may be refused.
   */
  private async warnOfBudget(session: McpSessionState, res: Response): Promise<void> {
    const limit = Number(res.getHeader('X-RateLimit-Limit'));
    const remaining = Number(res.getHeader('X-RateLimit-Remaining'));
    if (!Number.isFinite(limit) || !Number.isFinite(remaining) || remaining !== Math.floor(limit / 10)) return;
    if (!logLevelPasses('warning', session.logLevel)) return;
    const reset = res.getHeader('X-RateLimit-Reset');
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: 'notifications/message',
      params: {
        level: 'warning',
        logger: 'baton',
        data: { code: 'BUDGET_NEARLY_SPENT', detail: `${remaining} of ${limit} MCP calls left in this minute (resets in ${String(reset)} s)` },
      },
    };
    await this.store.enqueue([{ sessionId: session.id, message }]);
  }

  /** `GET /mcp` with a session id: the session's event stream; false without the header (no stream, as before). */
  async stream(req: Request, res: Response): Promise<boolean> {
    const header = req.headers[SESSION_HEADER];
    if (header === undefined) return false;
    const session = await this.sessionOf(req, res, header);
    if (!session) return true;
    if (!req.headers.accept?.includes('text/event-stream')) {
      res.status(406).json({ detail: 'Accept must include text/event-stream to open the session event stream' });
      return true;
    }
    const lastEventId = req.headers['last-event-id'];
    let cursor = typeof lastEventId === 'string' && /^\d{1,15}$/.test(lastEventId) ? Number(lastEventId) : 0;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', Connection: 'keep-alive', 'Mcp-Session-Id': session.id });
    // The priming event: the client's place in the queue, so that a drop before any message still resumes from here.
    res.write(`id: ${cursor}\ndata: \n\n`);
    const tenant = currentTenant();
    const key = WakeRegistry.key(tenant.tenantId, sessionTopic(session.id));
    let open = true;
    let checked = Date.now();
    let sleeping: { cancel(): void } | undefined;
    this.streams.add(res);
    res.on('close', () => {
      open = false;
      this.streams.delete(res);
      sleeping?.cancel();
    });
    // The stream outlives the request's deadline: its reads run in a scope without one.
    await runWithTenant(tenant, async () => {
      while (open) {
        const waiter = this.push.registry.register([key]);
        sleeping = waiter;
        try {
          const events = await this.store.eventsAfter(session.id, cursor);
          for (const event of events) {
            if (!open) break;
            res.write(`id: ${event.id}\nevent: message\ndata: ${event.message}\n\n`);
            cursor = event.id;
          }
          if (events.length > 0 || !open) continue;
          const woken = await waiter.wait(this.pollInterval(tenant.tenantId));
          if (!woken && open) {
            if (Date.now() - checked > ALIVE_CHECK_MS) {
              checked = Date.now();
              if (!(await this.store.alive(session.id))) break;
            }
            res.write(': keep-alive\n\n');
          }
        } catch (error) {
          this.streamFailures.warn('an MCP session stream could not read its queue', { error: (error as Error).message });
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
        } finally {
          waiter.cancel();
          sleeping = undefined;
        }
      }
    });
    if (!res.writableEnded) res.end();
    return true;
  }

  /** Ends every open stream, so that stopping waits for none: a client resumes with Last-Event-ID wherever it reconnects. */
  beforeApplicationShutdown(): void {
    for (const res of this.streams) res.end();
  }

  /**
   * How long a stream sleeps when nothing wakes it. Without Redis, one process sees every change
   * it is told of, so the queue is read at the slow safety interval; with Redis, as any waiter does
   * (the safety interval while push is live, the poll interval while it is not).
   */
  private pollInterval(tenantId: string): number {
    return this.push.adapter.configured ? this.push.intervalFor(tenantId) : this.config.pushSafetyPollMs;
  }

  /** `DELETE /mcp` with a session id ends the session; false without the header. */
  async end(req: Request, res: Response): Promise<boolean> {
    const header = req.headers[SESSION_HEADER];
    if (header === undefined) return false;
    const session = await this.sessionOf(req, res, header);
    if (!session) return true;
    await this.store.remove(session.id);
    res.status(200).end();
    return true;
  }

  private async open(req: Request, res: Response, serve: () => Promise<void>): Promise<void> {
    const { params } = req.body as { params: { protocolVersion: string; capabilities: unknown; clientInfo: { name: string } } };
    const id = randomUUID();
    try {
      await this.store.create({
        id,
        owner: ownerOf(req),
        protocol_version: params.protocolVersion,
        client_name: params.clientInfo.name,
        client_capabilities: JSON.stringify(params.capabilities ?? {}),
        log_level: DEFAULT_LOG_LEVEL,
      });
    } catch (error) {
      // A session that cannot be stored (the database failing) leaves the client stateless rather
      // than unable to start: its tool calls still answer, each with its own error if the fault remains.
      const { code, name } = error as Error & { code?: string };
      this.streamFailures.warn('an MCP session could not be stored: the client is served without one', { error_class: code ?? name });
      return serve();
    }
    res.setHeader('Mcp-Session-Id', id);
    await serve();
    // An initialize that was refused (an unsupported Accept, say) leaves no session behind.
    if (res.statusCode !== 200) await this.store.remove(id);
  }

  /** The session the header names, or the answer for an unknown one already sent (404, as the transport specification says). */
  private async sessionOf(req: Request, res: Response, header: string | string[]): Promise<McpSessionState | undefined> {
    const id = typeof header === 'string' ? header.trim() : '';
    const session = /^[0-9a-f-]{36}$/i.test(id) ? await this.store.find(id.toLowerCase(), ownerOf(req)) : undefined;
    if (!session) {
      // Another credential's session answers exactly like a missing one.
      res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found: unknown or ended MCP session; initialize a new one' }, id: null });
    }
    return session;
  }

  /** Runs `serve`; a `tools/call` that carries a progress token hears every few seconds that it is still running. */
  private async withProgress(session: McpSessionState, body: unknown, serve: () => Promise<void>): Promise<void> {
    const token = progressTokenOf(body);
    if (token === undefined) return serve();
    let progress = 0;
    const timer = setInterval(() => {
      progress += 1;
      const message = {
        jsonrpc: '2.0' as const,
        method: 'notifications/progress',
        params: { progressToken: token, progress, message: `still running after ${(progress * PROGRESS_EVERY_MS) / 1000} s` },
      };
      this.store
        .enqueue([{ sessionId: session.id, message }])
        .catch((error: Error) => this.streamFailures.warn('a progress notification was not queued', { error: error.message }));
    }, PROGRESS_EVERY_MS);
    try {
      await serve();
    } finally {
      clearInterval(timer);
    }
  }
}

/** A hash of the request's credential (none self-hosted): a session serves only the credential that opened it. */
function ownerOf(req: Request): string {
  const auth = req.headers.authorization;
  return auth ? createHash('sha256').update(auth).digest('hex') : '';
}

/** A client's response (a result or an error), checked by the SDK's schemas once it looks like one: a request pays no schema failure. */
function isResponse(message: unknown): boolean {
  if (typeof message !== 'object' || message === null || 'method' in message || !('id' in message)) return false;
  const sdk = mcpSdk();
  return sdk.isJSONRPCResultResponse(message) || sdk.isJSONRPCErrorResponse(message);
}

function progressTokenOf(body: unknown): ProgressToken | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { _meta?: { progressToken?: unknown } } };
  if (method !== 'tools/call') return undefined;
  const token = params?._meta?.progressToken;
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
