import { Http } from './support/http';
import { connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { startServerProcess, ServerProcess } from './support/processes';
import { REDIS_URL } from './support/services';
import { describePostgres, describeRedis } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, provisionTenant, startApp, TestApp } from './support/test-app';

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };

/** One JSON-RPC batch of `count` tools/list calls. */
function batchOf(count: number) {
  return Array.from({ length: count }, (_, i) => ({ ...LIST_TOOLS, id: i + 1 }));
}

async function mcpRequests(http: Http, count: number) {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) statuses.push((await http.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status);
  return statuses;
}

describePostgres('MCP rate limit (hosted, in process memory)', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('the 101st MCP request of one token within a minute answers 429 with Retry-After; other tokens are unaffected', async () => {
    const one = await tenantClient(testApp, 'limited');
    const two = await tenantClient(testApp, 'unaffected');
    const http = one.http;
    const statuses = await mcpRequests(http, 100);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await http.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(over.status).toBe(429);
    expect(over.body.detail).toMatch(/rate limit/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await two.http.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(200);
    // REST routes are not counted against the MCP limit.
    expect((await http.get('/projects')).status).toBe(200);
  });

  test('the budget counts calls: a batch of 100 calls uses it up, and the next request answers 429 RATE_LIMITED', async () => {
    const { token } = await provisionTenant(testApp, 'batch');
    const http = new Http(testApp.url, token);
    const batch = await http.post('/mcp', batchOf(100), MCP_HEADERS);
    expect(batch.status).toBe(200);
    expect(batch.body).toHaveLength(100);
    expect(batch.body.every((r: { result?: { tools?: unknown[] } }) => Array.isArray(r.result?.tools))).toBe(true);
    const over = await http.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ detail: expect.stringMatching(/rate limit/), code: 'RATE_LIMITED' });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('a batch larger than what is left is refused whole', async () => {
    const { token } = await provisionTenant(testApp, 'batch-over');
    const http = new Http(testApp.url, token);
    expect((await http.post('/mcp', batchOf(60), MCP_HEADERS)).status).toBe(200);
    const over = await http.post('/mcp', batchOf(41), MCP_HEADERS);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
  });

  test('a batch the SDK refuses for its size (over 100 messages) still takes the whole budget', async () => {
    const { token } = await provisionTenant(testApp, 'batch-huge');
    const http = new Http(testApp.url, token);
    const huge = await http.post('/mcp', batchOf(5_000), MCP_HEADERS);
    expect(huge.status).toBe(429);
    expect((await http.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(429);
  });

  test('the 405 answers of GET and DELETE /mcp take nothing from the budget, and every call says what is left', async () => {
    const { token } = await provisionTenant(testApp, 'free-answers');
    const http = new Http(testApp.url, token);
    for (let i = 0; i < 3; i++) {
      const [get, del] = [await http.get('/mcp'), await http.delete('/mcp')];
      expect([get.status, del.status]).toEqual([405, 405]);
      expect(get.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    const first = await http.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual(['100', '99']);
    expect((await http.post('/mcp', batchOf(3), MCP_HEADERS)).headers.get('x-ratelimit-remaining')).toBe('96');
  });

  test('/mcp and /mcp/sse draw on one budget: once /mcp has used it up, no call gets through SSE', async () => {
    const { token } = await provisionTenant(testApp, 'sse-shared');
    const http = new Http(testApp.url, token);
    // Opened before: its initialize, the initialized notification and the stream itself cost 3.
    const early = await connectMcp(testApp.url, token, 'sse');
    try {
      expect((await http.post('/mcp', batchOf(97), MCP_HEADERS)).status).toBe(200);
      await expect(early.listTools()).rejects.toThrow(/429/);
      // Opened after: refused at the door, so there is no session to call through.
      const late = await http.get('/mcp/sse');
      expect(late.status).toBe(429);
      expect(late.body.code).toBe('RATE_LIMITED');
      await expect(connectMcp(testApp.url, token, 'sse')).rejects.toThrow();
    } finally {
      await early.close();
    }
  });
});

describeRedis('MCP rate limit shared through Redis', () => {
  let db: TestDatabase;
  let token: string;
  let batchToken: string;
  let servers: ServerProcess[] = [];

  beforeAll(async () => {
    db = await TestDatabase.create();
    const setup = await startApp(hostedEnv(db.url));
    token = (await provisionTenant(setup, 'shared-limit')).token;
    batchToken = (await provisionTenant(setup, 'shared-batch')).token;
    await setup.close();
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db?.drop();
  });

  test('with Redis the count holds across two server processes', async () => {
    servers = await Promise.all([0, 1].map(() => startServerProcess(hostedEnv(db.url, { SERVICE_CACHE_URL: REDIS_URL }))));
    const [first, second] = servers.map((s) => new Http(s.url, token));
    const a = await mcpRequests(first, 50);
    const b = await mcpRequests(second, 50);
    expect([...a, ...b].every((s) => s === 200)).toBe(true);
    expect((await first.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(429);
    expect((await second.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(429);
  }, 60_000);

  test('batches count call by call across instances: 60 on one and 40 on the other use up the budget of both', async () => {
    const [first, second] = servers.map((s) => new Http(s.url, batchToken));
    expect((await first.post('/mcp', batchOf(60), MCP_HEADERS)).status).toBe(200);
    expect((await second.post('/mcp', batchOf(40), MCP_HEADERS)).status).toBe(200);
    const over = await first.post('/mcp', LIST_TOOLS, MCP_HEADERS);
    expect(over.status).toBe(429);
    expect(over.body.code).toBe('RATE_LIMITED');
    expect((await second.get('/mcp/sse')).status).toBe(429);
  }, 60_000);
});

describePostgres('MCP rate limit while Redis is unreachable', () => {
  let db: TestDatabase;
  let testApp: TestApp;

  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp(hostedEnv(db.url, { SERVICE_CACHE_URL: 'redis://127.0.0.1:1' }));
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('requests neither fail nor stall, and the limit is still enforced by this process', async () => {
    const { http } = await tenantClient(testApp, 'redis-down');
    const started = Date.now();
    const statuses = await mcpRequests(http, 100);
    const elapsed = Date.now() - started;
    expect(statuses.every((s) => s === 200)).toBe(true);
    // A stalled Redis call would cost its 500 ms command timeout per request; 100 requests stay far below that.
    expect(elapsed).toBeLessThan(100 * 500);
    expect((await http.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(429);
  }, 60_000);
});

describe('MCP on a self-hosted instance', () => {
  test('has no per-token limit: 150 requests all succeed', async () => {
    const testApp = await startApp();
    try {
      const statuses = await mcpRequests(new Http(testApp.url), 150);
      expect(statuses.every((s) => s === 200)).toBe(true);
    } finally {
      await testApp.close();
    }
  });
});
