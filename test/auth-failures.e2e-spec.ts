import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { DataSource } from 'typeorm';
import WebSocket from 'ws';
import { SHARED_DATA_SOURCE } from '../src/database/database.module';
import { ApiTokens } from '../src/modules/tenants/api-tokens.service';
import { hashApiToken } from '../src/modules/tenants/api-token.util';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { OwnRedis } from './support/own-redis';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describePostgres, describeRedis } from './support/suites';
import { hostedEnv, provisionTenant, startApp, TestApp } from './support/test-app';
import { sleep } from './support/wait';

/**
 * Every test speaks from its own loopback address (127.0.0.x): the limiter
 * counts per client address, and Linux answers the whole of 127/8 on `lo`.
 */
interface Answer {
  status: number;
  body: any;
  retryAfter: string | undefined;
}

function send(base: string, from: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method,
        localAddress: from,
        agent: false,
        headers: { ...headers, ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}) },
      },
      (res) => {
        // A stream (GET /mcp/sse with a good token) is not read to its end: the status is the answer.
        if (res.headers['content-type']?.startsWith('text/event-stream')) {
          res.destroy();
          return resolve({ status: res.statusCode ?? 0, body: undefined, retryAfter: undefined });
        }
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString();
          let parsed: unknown;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            parsed = undefined;
          }
          const retry = res.headers['retry-after'];
          resolve({ status: res.statusCode ?? 0, body: parsed, retryAfter: Array.isArray(retry) ? retry[0] : retry });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
/** A well-formed token no tenant holds. */
const wrongToken = () => 'sk_service_' + randomBytes(32).toString('base64url');
const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

/** Opens /ws from `from` and resolves with the close code, or 'open' once the `connected` frame arrives. */
function socketOutcome(base: string, from: string, token: string): Promise<{ code: number | 'open'; reason: string }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(base.replace('http', 'ws') + '/ws', { headers: bearer(token), localAddress: from });
    ws.on('message', (raw) => {
      if (JSON.parse(raw.toString()).event === 'connected') {
        resolve({ code: 'open', reason: '' });
        ws.close();
      }
    });
    ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    ws.on('error', reject);
  });
}

/** Counts the statements the app sends about API tokens, through its own DataSource logger. */
function countTokenLookups(testApp: TestApp): { readonly count: number } {
  const logger = testApp.app.get<DataSource>(SHARED_DATA_SOURCE).logger;
  const original = logger.logQuery.bind(logger);
  const counter = { count: 0 };
  logger.logQuery = (query, parameters, runner) => {
    if (/control\.api_tokens/.test(query)) counter.count++;
    return original(query, parameters, runner);
  };
  return counter;
}

const LIMIT = 5;
const limitedEnv = (dbUrl: string, extra: Record<string, string> = {}) =>
  hostedEnv(dbUrl, { SERVICE_AUTH_FAILURE_LIMIT: String(LIMIT), SERVICE_AUTH_FAILURE_WINDOW_SECONDS: '60', SERVICE_TOKEN_CACHE_SECONDS: '30', ...extra });

describePostgres('refused credentials (hosted, process memory)', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  let token: string;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(limitedEnv(db.url));
    token = (await provisionTenant(testApp, 'limited')).token;
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('past the limit a wrong token answers 429 RATE_LIMITED with Retry-After; a valid token from the same address still gets in', async () => {
    const from = '127.0.0.2';
    for (let i = 0; i < LIMIT; i++) {
      const refused = await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()));
      expect(refused.status).toBe(401);
      expect(refused.body).toEqual({ detail: 'invalid or revoked API token', code: 'UNAUTHORIZED' });
    }
    const limited = await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()));
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ detail: expect.stringMatching(/too many refused credentials/), code: 'RATE_LIMITED' });
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    // A malformed token is a refused credential too.
    expect((await send(testApp.url, from, 'GET', '/projects', bearer('not_a_baton_token'))).status).toBe(429);
    // A valid token is never refused for its neighbours' mistakes.
    const valid = await send(testApp.url, from, 'GET', '/projects', bearer(token));
    expect(valid.status).toBe(200);
    expect(valid.retryAfter).toBeUndefined();
    // No credential at all is no guess: still the plain 401.
    expect((await send(testApp.url, from, 'GET', '/projects')).status).toBe(401);
    // Another address is not affected.
    expect((await send(testApp.url, '127.0.0.3', 'GET', '/projects', bearer(wrongToken()))).status).toBe(401);
  });

  test('X-Forwarded-For is not trusted (no trust proxy): varying it does not escape the limit', async () => {
    const from = '127.0.0.4';
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) {
      statuses.push((await send(testApp.url, from, 'GET', '/projects', { ...bearer(wrongToken()), 'x-forwarded-for': `203.0.113.${i + 1}` })).status);
    }
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
  });

  test('the same wrong token repeated is looked up in the database once', async () => {
    const from = '127.0.0.5';
    const lookups = countTokenLookups(testApp);
    const wrong = wrongToken();
    for (let i = 0; i < LIMIT; i++) expect((await send(testApp.url, from, 'GET', '/projects', bearer(wrong))).status).toBe(401);
    expect(lookups.count).toBe(1);
    // Past the limit it is still answered from memory.
    expect((await send(testApp.url, from, 'GET', '/projects', bearer(wrong))).status).toBe(429);
    expect(lookups.count).toBe(1);
    // A different wrong token is a new lookup, and a valid one is looked up (and let in) as before.
    expect((await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()))).status).toBe(429);
    expect(lookups.count).toBe(2);
    expect((await send(testApp.url, from, 'GET', '/projects', bearer(token))).status).toBe(200);
  });

  test('a burst of one new wrong token sent at once costs one lookup, and every answer is a 401 or a 429', async () => {
    const lookups = countTokenLookups(testApp);
    const wrong = wrongToken();
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(testApp.url, '127.0.0.12', 'GET', '/projects', bearer(wrong))));
    expect(lookups.count).toBe(1);
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    expect(answers.filter((a) => a.status === 401)).toHaveLength(LIMIT);
  });

  test('tokens of several workspaces asked for in the same turn are looked up in one query, each answered with its own workspace', async () => {
    const others = [await provisionTenant(testApp, 'batch a'), await provisionTenant(testApp, 'batch b')];
    const revoked = await provisionTenant(testApp, 'batch revoked');
    await testApp.app.get(ApiTokens).revokeToken(revoked.token);
    const resolver = testApp.app.get(TenantResolver);
    const lookups = countTokenLookups(testApp);
    const asked = [...others.map((t) => t.token), revoked.token, wrongToken()].map((t) =>
      resolver.authenticate(`Bearer ${t}`, '127.0.0.13').then(
        (credential) => credential.tenant.tenantId,
        () => 'refused',
      ),
    );
    expect(await Promise.all(asked)).toEqual([others[0].tenant_id, others[1].tenant_id, 'refused', 'refused']);
    expect(lookups.count).toBe(1);
  });

  test('MCP: refusals on /mcp and /mcp/sse count together and answer 429 past the limit; a valid token still calls', async () => {
    const from = '127.0.0.6';
    for (let i = 0; i < 3; i++) expect((await send(testApp.url, from, 'POST', '/mcp', { ...MCP_HEADERS, ...bearer(wrongToken()) }, LIST_TOOLS)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await send(testApp.url, from, 'GET', '/mcp/sse', bearer(wrongToken()))).status).toBe(401);
    const post = await send(testApp.url, from, 'POST', '/mcp', { ...MCP_HEADERS, ...bearer(wrongToken()) }, LIST_TOOLS);
    expect(post.status).toBe(429);
    expect(post.body.code).toBe('RATE_LIMITED');
    expect(Number(post.retryAfter)).toBeGreaterThan(0);
    const sse = await send(testApp.url, from, 'GET', '/mcp/sse', bearer(wrongToken()));
    expect(sse.status).toBe(429);
    expect(Number(sse.retryAfter)).toBeGreaterThan(0);
    const valid = await send(testApp.url, from, 'POST', '/mcp', { ...MCP_HEADERS, ...bearer(token) }, LIST_TOOLS);
    expect(valid.status).toBe(200);
    expect(Array.isArray(valid.body.result.tools)).toBe(true);
    expect((await send(testApp.url, from, 'GET', '/mcp/sse', bearer(token))).status).toBe(200);
  });

  test('dashboard WebSocket: refusals count with those of REST; past the limit the socket closes with 4429; a valid token connects', async () => {
    const from = '127.0.0.7';
    for (let i = 0; i < 3; i++) expect((await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()))).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await socketOutcome(testApp.url, from, wrongToken())).code).toBe(4401);
    const limited = await socketOutcome(testApp.url, from, wrongToken());
    expect(limited.code).toBe(4429);
    expect(limited.reason).toMatch(/^rate limited: retry after \d+ s$/);
    // REST sees the same count.
    expect((await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()))).status).toBe(429);
    expect((await socketOutcome(testApp.url, from, token)).code).toBe('open');
  });

  test('a token that appears after its value was refused is accepted once SERVICE_TOKEN_CACHE_SECONDS has passed', async () => {
    const shortMemory = await startApp(limitedEnv(db.url, { SERVICE_TOKEN_CACHE_SECONDS: '1' }));
    try {
      const from = '127.0.0.8';
      const { tenant_id } = await provisionTenant(shortMemory, 'late token');
      const late = wrongToken();
      expect((await send(shortMemory.url, from, 'GET', '/projects', bearer(late))).status).toBe(401);
      // Issued elsewhere (another instance, the CLI): this instance still remembers the refusal...
      await db.query(`INSERT INTO control.api_tokens (id, tenant_id, name, token_hash, token_prefix, created_at, revoked_at) VALUES ($1, $2, 'late', $3, $4, now(), NULL)`, [
        randomUUID(),
        tenant_id,
        hashApiToken(late),
        late.slice(0, 15),
      ]);
      expect((await send(shortMemory.url, from, 'GET', '/projects', bearer(late))).status).toBe(401);
      // ...for one second at most.
      await sleep(1100);
      expect((await send(shortMemory.url, from, 'GET', '/projects', bearer(late))).status).toBe(200);
    } finally {
      await shortMemory.close();
    }
  });
});

describePostgres('refused credentials are logged as a tally', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await TestDatabase.create();
  });
  afterAll(async () => {
    await db?.drop();
  });

  test('many refusals write one line per cause at once and the rest as counts, never the token or its hash', async () => {
    const testApp = await startApp(limitedEnv(db.url));
    const tallies = () => testApp.logs.map((l) => JSON.parse(l)).filter((e) => e.msg === 'credentials refused');
    const from = '127.0.0.9';
    const wrong = Array.from({ length: 12 }, wrongToken);
    try {
      for (const t of wrong) await send(testApp.url, from, 'GET', '/projects', bearer(t));
      for (let i = 0; i < 3; i++) await send(testApp.url, from, 'GET', '/projects', bearer(`not_a_baton_token_${i}`));
      const during = tallies();
      expect(during.map((e) => [e.cause, e.count])).toEqual([
        ['unknown', 1],
        ['malformed', 1],
      ]);
    } finally {
      await testApp.close();
    }
    // Shutting down writes what was still being counted.
    const all = tallies();
    expect(all).toHaveLength(4);
    const sum = (cause: string, field: 'count' | 'answered_429') => all.filter((e) => e.cause === cause).reduce((n, e) => n + e[field], 0);
    expect(sum('unknown', 'count')).toBe(12);
    expect(sum('unknown', 'answered_429')).toBe(12 - LIMIT);
    expect(sum('malformed', 'count')).toBe(3);
    expect(sum('malformed', 'answered_429')).toBe(3);
    expect(all.every((e) => e.level === 'warn' && e.top_client === from && e.clients === 1)).toBe(true);
    const text = testApp.logs.join('\n');
    for (const t of wrong) {
      expect(text).not.toContain(t.slice(11, 25));
      expect(text).not.toContain(hashApiToken(t).slice(0, 12));
    }
  });
});

describeRedis('refused credentials counted across instances through Redis', () => {
  let db: TestDatabase;
  let apps: TestApp[] = [];
  let token: string;

  beforeAll(async () => {
    db = await TestDatabase.create();
    const env = limitedEnv(db.url, { SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('authfail') });
    apps = [await startApp(env), await startApp(env)];
    token = (await provisionTenant(apps[0], 'shared')).token;
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await db?.drop();
  });

  test('refusals on two instances add up: 3 on one and 2 on the other, and both answer 429 next', async () => {
    const [one, two] = apps;
    const from = '127.0.0.10';
    for (let i = 0; i < 3; i++) expect((await send(one.url, from, 'GET', '/projects', bearer(wrongToken()))).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await send(two.url, from, 'POST', '/mcp', { ...MCP_HEADERS, ...bearer(wrongToken()) }, LIST_TOOLS)).status).toBe(401);
    expect((await send(one.url, from, 'GET', '/projects', bearer(wrongToken()))).status).toBe(429);
    const limited = await send(two.url, from, 'GET', '/projects', bearer(wrongToken()));
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect((await send(two.url, from, 'GET', '/projects', bearer(token))).status).toBe(200);
  });
});

describePostgres('refused credentials while Redis is unreachable', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(limitedEnv(db.url, { SERVICE_CACHE_URL: 'redis://127.0.0.1:1' }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('refusals never fail or stall: they are counted in process memory, and the limit still holds', async () => {
    const from = '127.0.0.11';
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT + 3; i++) statuses.push((await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()))).status);
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429, 429, 429]);
    // A stalled Redis call would cost its 500 ms command timeout per refusal.
    expect(Date.now() - started).toBeLessThan((LIMIT + 3) * 500);
  });
});

describeRedis('refused credentials when Redis goes away', () => {
  let db: TestDatabase;
  let redis: OwnRedis;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    redis = await OwnRedis.start();
    testApp = await startApp(limitedEnv(db.url, { SERVICE_CACHE_URL: redis.url }));
  });
  afterAll(async () => {
    await testApp?.close();
    await redis?.stop();
    await db?.drop();
  });

  test('counting moves to process memory: no 5xx, no stall, and the limit holds again', async () => {
    const from = '127.0.0.13';
    for (let i = 0; i < 3; i++) expect((await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()))).status).toBe(401);
    expect(((await redis.command('KEYS', '*auth-failures*')) as string[]).length).toBeGreaterThan(0);
    await redis.stop();
    const started = Date.now();
    const statuses: number[] = [];
    for (let i = 0; i <= LIMIT; i++) statuses.push((await send(testApp.url, from, 'GET', '/projects', bearer(wrongToken()))).status);
    // This instance's memory starts its own count when Redis goes away.
    expect(statuses).toEqual([...Array<number>(LIMIT).fill(401), 429]);
    expect(Date.now() - started).toBeLessThan((LIMIT + 1) * 500);
  });
});
