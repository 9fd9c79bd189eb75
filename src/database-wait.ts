import type { INestApplication } from '@nestjs/common';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { Client } from 'pg';
import { parse } from 'pg-connection-string';
import { Backoff, retry } from '../libs/retry';
import { isDatabaseUnavailable } from '../libs/tenancy';
import { toErrorResponse } from './common/errors/error-response';
import { LISTEN_BACKLOG, listenApp } from './common/lifecycle/listen';
import { AppConfig } from './config/app-config';

/** Waits between attempts: 250 ms, doubling, never more than 2 s. */
const WAIT_BACKOFF: Backoff = { firstMs: 250, maxMs: 2000 };
/** One attempt gives up after this long (a frozen server accepts the TCP connection and says nothing). */
const PROBE_TIMEOUT_MS = 2000;

/** SQLSTATEs no amount of waiting cures. */
const PERMANENT_STATES: Record<string, string> = {
  '28P01': 'the password was refused',
  '28000': 'the user may not connect',
  '3D000': 'the database does not exist',
};
/** Also "not there yet": in a cluster the database's name may resolve only once it is deployed. */
const NOT_YET_ERRNOS = new Set(['ENOTFOUND']);

/** The database refused Baton for a reason that waiting does not change; the process should stop. */
export class DatabaseRefusedError extends Error {
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = 'DatabaseRefusedError';
  }
}

/**
 * Boots the app once the Postgres named by SERVICE_DB_URL answers. While it does not, the process
 * stays up: it tries again (250 ms, doubling, at most 2 s apart), writes one JSON line per attempt
 * naming the variable, host, port and reason, and after the first failed attempt answers on its
 * port (`GET /health` 200 `starting`, `GET /health/live` 200, `GET /health/deep` 503, anything else 503
 * DATABASE_UNAVAILABLE with Retry-After), so liveness holds and clients are told to retry. `boot`
 * builds and initialises the app (migrations run there); a database lost during it means waiting
 * again. A refused password, a missing database, or any error that is not "unreachable" throws
 * DatabaseRefusedError.
 */
export async function bootWhenDatabaseAnswers(config: AppConfig, boot: () => Promise<INestApplication>): Promise<INestApplication> {
  const url = config.dbUrl as string;
  const { host = 'localhost', port = '5432' } = parse(url);
  const started = Date.now();
  let starting: Server | undefined;
  let lastFailure: unknown;
  const booted = await retry<INestApplication, unknown>(
    async (attempt) => {
      let failure = await probe(url);
      if (failure === undefined) {
        try {
          const app = await boot();
          // The app takes over the waiting listener's socket (Node's `server.listen(handle)`), so the port never
          // stops listening: connections in its backlog and every later one go to the app, while those already
          // accepted get their 503 and close. Closing the waiting server would reset those in the backlog.
          if (starting) await listenApp(app, starting);
          else await listenApp(app, config.port, config.host);
          if (attempt > 1) logLine('info', 'the database answers; Baton started', { variable: 'SERVICE_DB_URL', host, port: Number(port), waited_ms: Date.now() - started });
          return { ok: true, value: app };
        } catch (error) {
          if (!isDatabaseUnavailable(error)) throw error;
          failure = error;
        }
      }
      const refused = refusal(failure);
      if (refused) {
        const message = `Baton cannot use the database named by SERVICE_DB_URL (host ${host}, port ${port}): ${refused}; fix SERVICE_DB_URL or the database, then start again`;
        throw new DatabaseRefusedError(message, { cause: failure });
      }
      return { ok: false, failure };
    },
    {
      backoff: WAIT_BACKOFF,
      onRetry: async ({ attempt, failure, delayMs }) => {
        lastFailure = failure;
        logLine('warn', 'waiting for the database', { variable: 'SERVICE_DB_URL', host, port: Number(port), attempt, reason: reasonOf(failure), retry_in_ms: delayMs });
        starting ??= await openStarting(config, () => reasonCode(lastFailure));
      },
    },
  );
  // Without a limit on attempts or time, only a value or a thrown refusal ends the waiting.
  if (!booted.ok) throw booted.failure;
  return booted.value;
}

/** One connection and `SELECT 1`; undefined when the database answered, else what went wrong. */
async function probe(url: string): Promise<unknown> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, query_timeout: PROBE_TIMEOUT_MS, application_name: 'baton' });
  client.on('error', () => undefined); // a reset after the attempt is over is not this attempt's business
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return error ?? new Error('unknown failure');
  } finally {
    client.end().catch(() => undefined);
  }
}

/** Why waiting will not help, or undefined when the database may still come. */
function refusal(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && PERMANENT_STATES[code]) return `${PERMANENT_STATES[code]} (SQLSTATE ${code})`;
  if (isDatabaseUnavailable(error) || (typeof code === 'string' && NOT_YET_ERRNOS.has(code))) return undefined;
  return `it answered with an error waiting will not cure: ${reasonOf(error)}`;
}

function reasonCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : 'UNAVAILABLE';
}

/** The error's code and message; pg's messages name at most the host and the user, never the password. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message).slice(0, 200);
}

/** The listener that answers while Baton waits. Every answer closes its connection, so none is left to the handover. */
async function openStarting(config: AppConfig, lastReason: () => string): Promise<Server> {
  const unavailable = toErrorResponse(Object.assign(new Error('the database system is starting up'), { code: '57P03' }));
  const identity = { service: 'baton', version: config.version, git_sha: config.gitSha };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    res.setHeader('Connection', 'close');
    if (path === '/health') return send(res, 200, { status: 'starting', ...identity });
    // Liveness holds while Baton waits (a database outage must not restart it); readiness is the 503 below.
    if (path === '/health/live') return send(res, 200, { status: 'ok' });
    if (path === '/health/deep') return send(res, 503, { status: 'starting', ...identity, components: { database: { status: 'down', error: lastReason() } } });
    for (const [name, value] of Object.entries(unavailable.headers ?? {})) res.setHeader(name, value);
    send(res, unavailable.status, unavailable.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  logLine('info', 'Baton is answering 503 until the database answers', { url: `http://${config.host}:${(server.address() as { port: number }).port}` });
  return server;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

function logLine(level: 'info' | 'warn', msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields }) + '\n');
}
