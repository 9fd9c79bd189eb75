import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { signIn, SignedInClient } from './support/accounts';
import { Balancer, startBalancer } from './support/balancer';
import { dashboardSocket } from './support/dashboard-socket';
import { Http, HttpResult } from './support/http';
import { Instances, startInstances } from './support/instances';
import { callTool, connectMcp } from './support/mcp-client';
import { createProject } from './support/projects';
import { describeRedis } from './support/suites';
import { provisionTenant } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

const LIST_TOOLS = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const MCP_HEADERS = { accept: 'application/json, text/event-stream' };
const WORKERS = 64;
/** Long-polls here wait this long at most (seconds): each test's answer comes well before. */
const WAIT_SECONDS = 30;

/**
 * Three `node dist/src/main.js` processes on one Postgres database and one Redis, behind a
 * round-robin balancer (test/support/balancer.ts), as replicas of one hosted deployment: every
 * coordination guarantee holds whichever instance a request lands on. Needs `npm run build`.
 */
describeRedis('three instances behind a balancer over one Postgres and one Redis', () => {
  let instances: Instances;
  let balancer: Balancer;
  let token: string;
  let limitedToken: string;
  /** The same person signed in twice (two browsers). */
  const browsers: SignedInClient[] = [];
  /** Through the balancer, with the workspace's token. */
  let http: Http;
  /** Straight to each instance, with the workspace's token. */
  let direct: Http[];

  beforeAll(async () => {
    instances = await startInstances(3, {
      redis: true,
      tenants: ['multi'],
      // Push (Redis) serves paid workspaces; free ones poll the database.
      plan: 'paid',
      env: {
        // A revocation reaches the other instances within this time (the token cache).
        SERVICE_TOKEN_CACHE_SECONDS: '2',
        // Background work runs every second on every instance, so that running it once is visible.
        SERVICE_SWEEP_INTERVAL_SECONDS: '1',
        SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS: '1',
        SERVICE_AUTO_SUMMARY_INTERVAL: '1',
      },
      prepare: async (setup) => {
        limitedToken = (await provisionTenant(setup, 'limited')).token;
        const email = 'replicas@example.test';
        for (let i = 0; i < 2; i++) browsers.push(await signIn(setup, email));
      },
      timeoutMs: 45_000,
    });
    token = instances.tenants[0].token;
    balancer = await startBalancer(instances.servers.map((s) => s.url));
    http = new Http(balancer.url, token);
    direct = instances.servers.map((s) => new Http(s.url, token));
  }, 120_000);
  afterAll(async () => {
    await balancer?.close();
    await instances?.stop();
  });

  /**
   * Until push (Redis) is reachable from every instance still running: dashboards see other
   * instances' events only through it. (A machine so busy that a publish times out turns it
   * degraded for a moment, when waits fall back to reading the database.)
   */
  const pushReachable = async (servers = instances.servers) => {
    for (const server of servers) {
      const via = new Http(server.url, token);
      await waitUntil(
        async () => (await via.get(`/tunnel/diagnostics/${instances.tenants[0].tenant_id}`)).body.pubsub?.availability === 'reachable',
        20_000,
        `push reachable from ${server.url}`,
      );
    }
  };

  /** The schema of the workspace's data, for reading rows the API does not show. */
  const tenantSchema = async () =>
    (await instances.db.query<{ schema_name: string }>('SELECT schema_name FROM control.tenants WHERE id = $1', [instances.tenants[0].tenant_id]))[0].schema_name;

  test('file locks: a file claimed through one instance is refused to other sessions through every instance, and of 16 sessions racing for one file through the balancer one wins', async () => {
    const p = await createProject(http, 'Locks');
    const [holder, other] = await Promise.all(['holder', 'other'].map(async (name) => (await http.post('/sessions/register', { project_id: p, name })).body.id as string));
    const clients: Client[] = await Promise.all(instances.servers.map((s) => connectMcp(s.url, token)));
    try {
      expect((await callTool(clients[0], 'claim_file', { file_path: 'src/shared.ts', session_id: holder })).value.file_path).toBe('src/shared.ts');
      for (const client of clients.slice(1)) {
        const refused = await callTool(client, 'claim_file', { file_path: './src//shared.ts', session_id: other });
        expect(refused.isError).toBe(true);
        expect(refused.structured).toMatchObject({ code: 'FILE_LOCKED' });
      }
      for (const via of direct) expect((await via.get(`/projects/${p}/file-locks`)).body).toEqual([expect.objectContaining({ file_path: 'src/shared.ts', session_id: holder })]);
      expect((await callTool(clients[2], 'release_file', { file_path: 'src/shared.ts', session_id: holder })).isError).toBe(false);
      expect((await callTool(clients[1], 'claim_file', { file_path: 'src/shared.ts', session_id: other })).isError).toBe(false);

      const racers = await Promise.all(
        Array.from({ length: 16 }, async (_, i) => (await http.post('/sessions/register', { project_id: p, name: `racer-${i}` })).body.id as string),
      );
      const results = await Promise.all(racers.map((s, i) => callTool(clients[i % 3], 'claim_file', { file_path: 'src/raced.ts', session_id: s })));
      expect(results.filter((r) => !r.isError)).toHaveLength(1);
      expect(results.filter((r) => r.isError).map((r) => r.structured?.code)).toEqual(Array(15).fill('FILE_LOCKED'));
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  }, 60_000);

  test(`sprint claims: ${WORKERS} workers through the balancer drain a sprint, each item claimed exactly once`, async () => {
    const p = await createProject(http, 'Claims');
    const items = Array.from({ length: 256 }, (_, i) => ({ title: `claimed item ${i}`, version: 'v1', force: true }));
    expect((await http.post(`/projects/${p}/sprint-batch`, { op: 'create', items })).status).toBe(200);
    const sessions = await Promise.all(
      Array.from({ length: WORKERS }, async (_, i) => (await http.post('/sessions/register', { project_id: p, name: `w${i}`, kind: 'worker' })).body.id as string),
    );
    const sentBefore = [...balancer.sent];
    const claims = new Map<string, string[]>();
    const failures: string[] = [];
    await Promise.all(
      sessions.map(async (session) => {
        for (;;) {
          const res = await http.post(`/projects/${p}/sprint-items/claim`, { session_id: session });
          if (res.status !== 200) return void failures.push(`${res.status} ${res.text.slice(0, 200)}`);
          if (!res.body.claimed) return;
          claims.set(res.body.item.id, [...(claims.get(res.body.item.id) ?? []), session]);
        }
      }),
    );
    expect(failures).toEqual([]);
    expect([...claims.values()].filter((holders) => holders.length > 1)).toEqual([]);
    expect(claims.size).toBe(256);
    // Every instance took its share of the claims.
    for (const [i, n] of balancer.sent.entries()) expect(n - sentBefore[i]).toBeGreaterThan(WORKERS);
    const rows = await instances.db.query<{ id: string; claimed_by_session_id: string }>(
      `SELECT id, claimed_by_session_id FROM "${await tenantSchema()}".sprint_items WHERE project_id = $1`,
      [p],
    );
    expect(rows.map((r) => [r.id, [r.claimed_by_session_id]]).sort()).toEqual([...claims.entries()].sort());
  }, 120_000);

  test('the MCP rate limit is per token across instances: 100 calls in a minute spread over three instances, then 429 on every one', async () => {
    const limited = new Http(balancer.url, limitedToken);
    const sentBefore = [...balancer.sent];
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await limited.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(balancer.sent.map((n, i) => n - sentBefore[i]).sort()).toEqual([33, 33, 34]);
    for (const server of instances.servers) {
      const over = await new Http(server.url, limitedToken).post('/mcp', LIST_TOOLS, MCP_HEADERS);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ code: 'RATE_LIMITED', detail: expect.stringMatching(/rate limit/) });
    }
    // Another token's budget is its own.
    expect((await http.post('/mcp', LIST_TOOLS, MCP_HEADERS)).status).toBe(200);
  });

  test('an API token revoked through one instance is refused at once there and within SERVICE_TOKEN_CACHE_SECONDS on the others', async () => {
    const made = await http.post('/auth/tokens', { label: 'short-lived' });
    expect(made.status).toBe(201);
    const perInstance = instances.servers.map((s) => new Http(s.url, made.body.token));
    // Each instance has checked the token (and remembers it).
    for (const via of perInstance) expect((await via.get('/projects')).status).toBe(200);
    expect((await direct[1].delete(`/auth/tokens/${made.body.id}`)).status).toBe(204);
    expect((await perInstance[1].get('/projects')).status).toBe(401);
    for (const via of perInstance) await waitUntil(async () => (await via.get('/projects')).status === 401, 10_000, 'the revoked token refused');
    const later = await new Http(balancer.url, made.body.token).get('/projects');
    expect(later.status).toBe(401);
    expect(later.body.detail).toMatch(/revoked/);
  }, 30_000);

  test('a web session revoked through one instance is refused by every instance; the other session of the person still works', async () => {
    const [kept, revoked] = browsers;
    const onInstance = (b: SignedInClient, i: number) => new Http(instances.servers[i].url).withHeaders({ cookie: b.cookie, origin: instances.servers[i].url });
    for (let i = 0; i < 3; i++) expect((await onInstance(revoked, i).get('/auth/me')).status).toBe(200);
    const list = await onInstance(kept, 0).get('/account/sessions');
    expect(list.status).toBe(200);
    const other = list.body.find((s: { current: boolean }) => !s.current);
    expect((await onInstance(kept, 2).post(`/account/sessions/${other.id}/revoke`)).status).toBe(204);
    for (let i = 0; i < 3; i++) await waitUntil(async () => (await onInstance(revoked, i).get('/auth/me')).status === 401, 10_000, 'the revoked web session refused');
    for (let i = 0; i < 3; i++) expect((await onInstance(kept, i).get('/auth/me')).status).toBe(200);
  }, 30_000);

  test('a message sent on one instance wakes a receiver waiting on each other one; a HITL answer wakes a wait on another instance', async () => {
    const p = await createProject(http, 'Wake-ups');
    for (let i = 0; i < 3; i++) {
      const agent = `reader-${i}`;
      const waiting = direct[i].post(`/projects/${p}/messages/receive`, { agent, wait_seconds: WAIT_SECONDS });
      await waitUntil(async () => Number(/baton_long_poll_waiters\S* (\d+)/.exec((await direct[i].get('/metrics')).text)?.[1] ?? 0) > 0, 10_000, 'the wait registered');
      const sent = await direct[(i + 1) % 3].post(`/projects/${p}/messages`, { to_agent: agent, body: `to instance ${i}` });
      expect(sent.status).toBe(201);
      const got = await waiting;
      expect(got.body.messages.map((m: { id: string }) => m.id)).toEqual([sent.body.id]);
    }
    const s = (await http.post('/sessions/register', { project_id: p, name: 'asker' })).body.id;
    const q = (await direct[0].post(`/projects/${p}/hitl`, { question: 'Across instances?', session_id: s })).body;
    const waiting = direct[1].get(`/hitl/${q.id}?wait=${WAIT_SECONDS}`);
    await sleep(300);
    expect((await direct[2].patch(`/hitl/${q.id}`, { answer: 'yes' })).status).toBe(200);
    expect((await waiting).body).toMatchObject({ id: q.id, status: 'answered', answer: 'yes' });
  }, 90_000);

  test('dashboard WebSockets on every instance, and one through the balancer, each see an event made on one instance exactly once', async () => {
    await pushReachable();
    const sockets = await Promise.all([...instances.servers.map((s) => s.url), balancer.url].map((url) => dashboardSocket(url, token)));
    try {
      const p = await createProject(http, 'Fan-out');
      const s = (await direct[2].post('/sessions/register', { project_id: p, name: 'seen everywhere' })).body.id;
      const q = (await direct[0].post(`/projects/${p}/hitl`, { question: 'Seen by all?', session_id: s })).body;
      for (const socket of sockets) await waitUntil(() => socket.frames.some((f) => f.event === 'hitl_created' && f.data.request.id === q.id), 10_000, 'hitl_created');
      await sleep(300);
      for (const socket of sockets) {
        expect(socket.frames.filter((f) => f.event === 'hitl_created' && f.data.request.id === q.id)).toHaveLength(1);
        expect(socket.frames.filter((f) => f.event === 'session_started' && f.data.session.id === s)).toHaveLength(1);
      }
    } finally {
      for (const socket of sockets) socket.ws.close();
    }
  }, 30_000);

  test('background work runs on one instance at a time: a silent session is closed once, the reaper and the auto-summary run once per interval', async () => {
    const schema = await tenantSchema();
    const p = await createProject(http, 'Background');
    await pushReachable();
    const sockets = await Promise.all(instances.servers.map((s) => dashboardSocket(s.url, token)));
    try {
      const silent = (await http.post('/sessions/register', { project_id: p, name: 'silent' })).body.id;
      const busy = (await http.post('/sessions/register', { project_id: p, name: 'busy' })).body.id;
      const started = Date.now();
      // Silent for two hours: every instance's sweeper (every second) finds it.
      await instances.db.query(`UPDATE "${schema}".sessions SET last_seen = now() - interval '2 hours' WHERE id = $1`, [silent]);
      for (let i = 0; Date.now() - started < 5_000; i++) {
        expect((await http.post('/tasks', { project_id: p, session_id: busy, description: `background task ${i}` })).status).toBe(201);
        await sleep(100);
      }
      await sleep(1_200);
      const elapsed = Date.now() - started;
      expect((await http.get(`/sessions/${silent}`)).body.status).toBe('closed');
      // Closed once: a dashboard on any instance is told once (two instances closing it would tell those on both twice).
      const told = sockets.map((socket) => socket.frames.filter((f) => f.event === 'session_closed' && f.data.session.id === silent).length);
      expect(told).toEqual([1, 1, 1]);
      const reaper = (await http.get(`/projects/${p}/orphan_reaper`)).body;
      // Three instances each trying every second reap the project about once a second between them.
      expect(reaper.run_count).toBeGreaterThanOrEqual(3);
      expect(reaper.run_count).toBeLessThanOrEqual(Math.floor(elapsed / 950) + 1);
      const summaries = await instances.db.query<{ since: Date; until: Date }>(`SELECT since, until FROM "${schema}".project_summaries WHERE project_id = $1 ORDER BY until`, [p]);
      expect(summaries.length).toBeGreaterThanOrEqual(3);
      expect(summaries.length).toBeLessThanOrEqual(Math.floor(elapsed / 900) + 1);
      // Windows follow one another without overlap (a cycle with nothing to digest writes none, so one may be skipped).
      for (let i = 1; i < summaries.length; i++) expect(summaries[i].since.getTime()).toBeGreaterThanOrEqual(summaries[i - 1].until.getTime());
    } finally {
      for (const socket of sockets) socket.ws.close();
    }
  }, 60_000);

  test(`one instance killed with SIGKILL while ${WORKERS} workers claim: no claim lost or doubled, its sessions' locks stay until their TTL, clients go on through the others`, async () => {
    const p = await createProject(http, 'Killed');
    const total = 384;
    const items = Array.from({ length: total }, (_, i) => ({ title: `survivor item ${i}`, version: 'v1', force: true }));
    expect((await http.post(`/projects/${p}/sprint-batch`, { op: 'create', items })).status).toBe(200);
    const victim = instances.servers[2];
    const onVictim = direct[2];
    // A session that works through the instance about to die holds a file.
    const lockHolder = (await onVictim.post('/sessions/register', { project_id: p, name: 'on the killed instance' })).body.id;
    const victimMcp = await connectMcp(victim.url, token);
    expect((await callTool(victimMcp, 'claim_file', { file_path: 'src/held.ts', session_id: lockHolder })).isError).toBe(false);
    await victimMcp.close();
    const sessions = await Promise.all(
      Array.from({ length: WORKERS }, async (_, i) => (await http.post('/sessions/register', { project_id: p, name: `k${i}`, kind: 'worker' })).body.id as string),
    );

    const claims = new Map<string, string[]>();
    const failures: string[] = [];
    let retries = 0;
    let answered = 0;
    let killedAfter = -1;
    /** A call through the balancer, sent again when the instance it landed on broke it off (502) or the connection failed. */
    const send = async (path: string, body: unknown): Promise<HttpResult> => {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await http.post(path, body);
          if (res.status !== 502) return res;
        } catch {
          // the connection itself was cut
        }
        retries++;
        if (attempt > 20) throw new Error(`${path}: no instance answered`);
        await sleep(50);
      }
    };
    const killer = (async () => {
      await waitUntil(() => claims.size >= total / 3, 60_000, 'a third of the items claimed');
      killedAfter = claims.size;
      victim.child.kill('SIGKILL');
    })();
    await Promise.all(
      sessions.map(async (session) => {
        for (;;) {
          const res = await send(`/projects/${p}/sprint-items/claim`, { session_id: session });
          answered++;
          if (res.status !== 200) return void failures.push(`${res.status} ${res.text.slice(0, 200)}`);
          if (!res.body.claimed) return;
          claims.set(res.body.item.id, [...(claims.get(res.body.item.id) ?? []), session]);
        }
      }),
    );
    await killer;
    await new Promise((resolve) => (victim.child.exitCode !== null || victim.child.signalCode !== null ? resolve(null) : victim.child.once('exit', resolve)));

    // A claim whose answer was lost with the instance is still the session's: the database says so, and the worker finds it there.
    const schema = await tenantSchema();
    const rows = await instances.db.query<{ id: string; status: string; claimed_by_session_id: string | null }>(
      `SELECT id, status, claimed_by_session_id FROM "${schema}".sprint_items WHERE project_id = $1`,
      [p],
    );
    const unanswered = rows.filter((r) => !claims.has(r.id));
    const doubled = [...claims.values()].filter((holders) => holders.length > 1);
    const lost = rows.filter((r) => r.status !== 'in_progress' || !r.claimed_by_session_id || !sessions.includes(r.claimed_by_session_id));
    const figures = {
      instances: 3,
      workers: WORKERS,
      items: total,
      killed_after_claims: killedAfter,
      claim_answers: answered,
      retried_after_the_kill: retries,
      balancer_skipped_dead_instance: balancer.retried,
      balancer_broken_requests: balancer.broken,
      claims_answered: claims.size,
      claims_done_but_answer_lost: unanswered.length,
      doubled: doubled.length,
      lost: lost.length,
    };
    // eslint-disable-next-line no-console -- the kill test's figures are read from the suite's output
    console.log(`multi-instance kill test: ${JSON.stringify(figures)}`);
    expect(failures).toEqual([]);
    expect(doubled).toEqual([]);
    expect(lost).toEqual([]);
    expect(rows).toHaveLength(total);
    for (const r of unanswered) expect(sessions).toContain(r.claimed_by_session_id);
    for (const [id, [holder]] of claims) expect(rows.find((r) => r.id === id)?.claimed_by_session_id).toBe(holder);

    // The killed instance's session keeps its lock: other sessions are refused through the survivors, until the TTL passes.
    const survivor = await connectMcp(instances.servers[0].url, token);
    try {
      const [lock] = (await direct[0].get(`/projects/${p}/file-locks`)).body;
      expect(lock).toMatchObject({ file_path: 'src/held.ts', session_id: lockHolder });
      expect(Date.parse(lock.expires_at)).toBeGreaterThan(Date.now());
      const refused = await callTool(survivor, 'claim_file', { file_path: 'src/held.ts', session_id: sessions[0] });
      expect(refused.structured).toMatchObject({ code: 'FILE_LOCKED' });
      // Time passes beyond the TTL (moved in the database rather than waited for).
      await instances.db.query(`UPDATE "${schema}".file_locks SET expires_at = now() - interval '1 second' WHERE session_id = $1`, [lockHolder]);
      const taken = await callTool(survivor, 'claim_file', { file_path: 'src/held.ts', session_id: sessions[0] });
      expect(taken.isError).toBe(false);
    } finally {
      await survivor.close();
    }
  }, 180_000);

  test('an instance stopped with SIGTERM hands over: its waits answer 200 and its sockets close 1001, and the clients carry on through the balancer on the instance left', async () => {
    const p = await createProject(http, 'Handed over');
    const stopping = instances.servers[1];
    const agents = Array.from({ length: 20 }, (_, i) => `handed-${i}`);
    const waits = agents.map((agent) => direct[1].post(`/projects/${p}/messages/receive`, { agent, wait_seconds: WAIT_SECONDS }));
    await waitUntil(
      async () => Number(/baton_long_poll_waiters\S* (\d+)/.exec((await direct[1].get('/metrics')).text)?.[1] ?? 0) === agents.length,
      10_000,
      'the waits registered',
    );
    const sockets = await Promise.all(Array.from({ length: 5 }, () => dashboardSocket(stopping.url, token)));
    const closes = sockets.map(({ ws }) => new Promise<number>((resolve) => ws.once('close', resolve)));
    const logged = stopping.output().length;
    const exited = new Promise<number | null>((resolve) => stopping.child.once('exit', resolve));
    stopping.child.kill('SIGTERM');

    const answered = await Promise.all(waits);
    expect(answered.map((a) => a.status)).toEqual(agents.map(() => 200));
    expect(new Set(await Promise.all(closes))).toEqual(new Set([1001]));
    expect(await exited).toBe(0);
    const troubles = stopping
      .output()
      .slice(logged)
      .split('\n')
      .filter((line) => /"level":"(warn|error|fatal)"|already executing a query|Cannot use a pool/.test(line))
      // The tally of the credentials this suite presented after revoking them, written as the instance stops.
      .filter((line) => !line.includes('"msg":"credentials refused"'));
    expect(troubles).toEqual([]);

    // The clients come back through the balancer: it skips the stopped instance.
    const reconnected = await Promise.all(sockets.map(() => dashboardSocket(balancer.url, token)));
    try {
      const again = agents.map((agent) => http.post(`/projects/${p}/messages/receive`, { agent, wait_seconds: WAIT_SECONDS }));
      await waitUntil(
        async () => Number(/baton_long_poll_waiters\S* (\d+)/.exec((await direct[0].get('/metrics')).text)?.[1] ?? 0) === agents.length,
        10_000,
        'the waits sent again',
      );
      const sent = await Promise.all(agents.map((agent) => http.post(`/projects/${p}/messages`, { to_agent: agent, body: `after the handover to ${agent}` })));
      const got = await Promise.all(again);
      expect(got.map((g) => g.body.messages.map((m: { id: string }) => m.id))).toEqual(sent.map((m) => [m.body.id]));
      for (const socket of reconnected)
        await waitUntil(() => socket.frames.filter((f) => f.event === 'message_sent').length === agents.length, 10_000, 'message_sent on the reconnected dashboard');
    } finally {
      for (const socket of reconnected) socket.ws.close();
    }
  }, 60_000);
});
