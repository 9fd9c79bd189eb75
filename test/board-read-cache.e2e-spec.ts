import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { ServerProcess } from './support/processes';
import { createProject } from './support/projects';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describePostgres, describeRedis } from './support/suites';
import { startApp, TestApp } from './support/test-app';
import { twoProcesses } from './support/instances';
import { waitUntil } from './support/wait';

const LOCAL = '00000000-0000-0000-0000-000000000000';

interface Figures {
  live: boolean;
  entries?: number;
  hits?: number;
  misses?: number;
  invalidations?: number;
}

const boardRead = async (http: Http, tenantId: string): Promise<Figures> => (await http.get(`/tunnel/diagnostics/${tenantId}`)).body.pubsub.cache.board_read;
const titles = async (http: Http, projectId: string): Promise<string[]> =>
  ((await http.get(`/projects/${projectId}/sprint-items`)).body as { title: string }[]).map((i) => i.title);
const block = async (http: Http, projectId: string): Promise<string> => (await http.get(`/projects/${projectId}/context-block`)).text;

describe('the board-read cache of a self-hosted SQLite instance', () => {
  let testApp: TestApp;
  let http: Http;
  beforeAll(async () => {
    testApp = await startApp({ SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    http = new Http(testApp.url);
  });
  afterAll(() => testApp?.close());

  test('a repeated board read is a hit; every write drops it, so no read is stale; diagnostics report live figures', async () => {
    const p = await createProject(http, 'Board');
    await http.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'First on the board' });
    const before = await boardRead(http, LOCAL);
    expect(before).toMatchObject({ live: true });
    expect(await titles(http, p)).toEqual(['First on the board']);
    expect(await titles(http, p)).toEqual(['First on the board']);
    const warm = await boardRead(http, LOCAL);
    expect(warm.hits! - before.hits!).toBe(1);
    expect(warm.misses! - before.misses!).toBe(1);
    expect(warm.entries).toBeGreaterThanOrEqual(1);

    await http.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'Second on the board' });
    expect(await titles(http, p)).toEqual(['First on the board', 'Second on the board']);
    expect((await boardRead(http, LOCAL)).invalidations!).toBeGreaterThan(warm.invalidations!);

    // The context block: a workspace note (which tells no dashboard) and a goal change show at once.
    expect(await block(http, p)).toContain('First on the board');
    expect(await block(http, p)).not.toContain('Ship it by Friday');
    expect((await http.post('/workspace/notes', { title: 'Ship it by Friday', body: 'for every project' })).status).toBe(201);
    expect(await block(http, p)).toContain('Ship it by Friday');
    await http.post(`/projects/${p}/goal`, { content: 'A goal written just now' });
    expect(await block(http, p)).toContain('A goal written just now');
  });

  test('a task claimed, released, finished or deleted shows in the next block read', async () => {
    const p = await createProject(http, 'Tasks on the board');
    const session = (await http.post('/sessions/register', { project_id: p, name: 'worker' })).body.id as string;
    const task = (await http.post('/tasks', { project_id: p, session_id: session, description: 'Write the release notes', status: 'pending' })).body.id as string;
    const line = async () => (await block(http, p)).split('\n').find((l) => l.includes('Write the release notes'));
    expect(await line()).toMatch(/^- \[pending\]/);
    expect(await line()).toMatch(/^- \[pending\]/);
    expect((await http.post(`/projects/${p}/tasks/claim`, { session_id: session, task_id: task })).body.claimed).toBe(true);
    expect(await line()).toMatch(/^- \[in_progress\]/);
    expect((await http.post(`/projects/${p}/tasks/release`, { session_id: session, task_id: task })).status).toBe(200);
    expect(await line()).toMatch(/^- \[pending\]/);
    expect((await http.patch(`/tasks/${task}`, { status: 'done' })).status).toBe(200);
    expect(await line()).toMatch(/^- \[done\]/);
    expect((await http.delete(`/tasks/${task}`)).status).toBe(204);
    expect(await line()).toBeUndefined();
  });
});

describePostgres('the board-read cache without Redis on Postgres', () => {
  let db: TestDatabase;
  let testApp: TestApp;
  beforeAll(async () => {
    db = await TestDatabase.create();
    testApp = await startApp({ SERVICE_DB_URL: db.url, SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
  });
  afterAll(async () => {
    await testApp?.close();
    await db?.drop();
  });

  test('is not live: another instance on the same database could write unheard, so every board read goes to the database', async () => {
    const http = new Http(testApp.url);
    const p = await createProject(http, 'Unheard');
    await titles(http, p);
    await titles(http, p);
    expect(await boardRead(http, LOCAL)).toEqual({ live: false });
  });
});

describeRedis('the board-read cache across two processes sharing Postgres and Redis', () => {
  let db: TestDatabase;
  let servers: ServerProcess[] = [];
  let a: Http;
  let b: Http;
  let mcpB: Client;
  let tenantId: string;

  beforeAll(async () => {
    const started = await twoProcesses({ SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('board') }, ['board']);
    ({ db, servers } = started);
    tenantId = started.ids[0];
    [a, b] = servers.map((s) => new Http(s.url, started.tokens[0]));
    mcpB = await connectMcp(servers[1].url, started.tokens[0], 'http', 'all');
    for (const http of [a, b]) {
      await waitUntil(async () => (await http.get(`/tunnel/diagnostics/${tenantId}`)).body.pubsub?.availability === 'reachable', 15_000, 'reachable');
      // A write makes the instance learn the tenant's plan: push (and so the cache) is live from then on.
      await http.post('/workspace/notes', { title: 'warm-up' });
      await waitUntil(async () => (await boardRead(http, tenantId)).live, 15_000, 'push live');
    }
  }, 90_000);
  afterAll(async () => {
    await mcpB?.close();
    await Promise.all(servers.map((s) => s.stop()));
    await db?.drop();
  });

  test("a write on B drops A's cached board: A's next read shows it, never the board A had cached", async () => {
    const p = (await a.post('/projects', { name: 'Shared board' })).body.id;
    await a.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'Written on A' });
    expect(await titles(a, p)).toEqual(['Written on A']);
    expect(await block(a, p)).toContain('Written on A');
    expect(await titles(a, p)).toEqual(['Written on A']);
    const cached = await boardRead(a, tenantId);
    expect(cached.hits).toBeGreaterThanOrEqual(1);

    expect((await b.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'Written on B', force: true })).status).toBe(201);
    // The relay through Redis reaches A (its invalidation count moves) ...
    await waitUntil(async () => (await boardRead(a, tenantId)).invalidations! > cached.invalidations!, 5_000, "B's write reaching A");
    // ... and A's board is read again: both items, in the listing and in the block.
    expect(await titles(a, p)).toEqual(['Written on A', 'Written on B']);
    expect(await block(a, p)).toContain('Written on B');
  });

  test('a write acknowledged by B is in the very next read on A, 50 times in a row: REST and MCP writes, the listing and the block', async () => {
    const p = (await a.post('/projects', { name: 'Read your writes' })).body.id;
    await a.post(`/projects/${p}/sprint-items`, { version: 'v1', title: 'Already on the board' });
    const before = await boardRead(a, tenantId);
    const expected = ['Already on the board'];
    for (let i = 0; i < 50; i++) {
      // A holds the board cached: the second read of each is served from memory.
      expect(await titles(a, p)).toEqual(expected);
      expect(await titles(a, p)).toEqual(expected);
      const title = `Written on B, round ${i}`;
      if (i % 5 === 4) {
        // Every fifth write is an MCP tool call; every tenth changes the block through the goal instead.
        const added = await callTool(mcpB, 'add_sprint_item', { project_id: p, version: 'v1', title, force: true });
        expect(added.isError).toBe(false);
      } else {
        expect((await b.post(`/projects/${p}/sprint-items`, { version: 'v1', title, force: true })).status).toBe(201);
      }
      expected.push(title);
      // No wait: B has answered, so A's next read shows the write.
      expect(await titles(a, p)).toEqual(expected);
      if (i % 10 === 9) {
        await block(a, p);
        expect((await b.post(`/projects/${p}/goal`, { content: `Goal of round ${i}` })).status).toBe(200);
        expect(await block(a, p)).toContain(`Goal of round ${i}`);
      }
    }
    // The reads were served from the cache between the writes (one repeated read in two at least): it did not simply stop caching.
    const after = await boardRead(a, tenantId);
    expect(after.live).toBe(true);
    expect(after.hits! - before.hits!).toBeGreaterThanOrEqual(25);
  }, 60_000);
});
