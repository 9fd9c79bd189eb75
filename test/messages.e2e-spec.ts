import { randomUUID } from 'node:crypto';
import { eachBackend, RunningBackend } from './support/backends';
import { expectRefused } from './support/bad-input';
import { dashboardSocket } from './support/dashboard-socket';
import { Http } from './support/http';
import { callTool, connectMcp } from './support/mcp-client';
import { TestDatabase } from './support/pg-database';
import { REDIS_URL, uniquePrefix } from './support/services';
import { median } from './support/stats';
import { describePostgres, describeRedis } from './support/suites';
import { tenantClient } from './support/tenant-client';
import { hostedEnv, startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

const POLL_MS = 300;

describe.each(eachBackend())('messages on %s', (_name, backend) => {
  let run: RunningBackend;
  let projectId: string;
  const register = async (name: string) => (await run.http.post('/sessions/register', { project_id: projectId, name })).body;
  const send = (body: Record<string, unknown>) => run.http.post(`/projects/${projectId}/messages`, body);
  const receive = (body: Record<string, unknown>) => run.http.post(`/projects/${projectId}/messages/receive`, body);

  beforeAll(async () => {
    run = await backend.start({ SERVICE_POLL_INTERVAL_MS: String(POLL_MS), SERVICE_SWEEP_INTERVAL_SECONDS: '0' });
    projectId = (await run.http.post('/projects', { name: 'Messages' })).body.id;
  });
  afterAll(async () => {
    await run?.stop();
  });

  test('a message to a session is stored (201), received in order, and comes back until acknowledged, never after', async () => {
    const bob = await register('bob');
    const sent = [];
    for (const text of ['one', 'two', 'three']) {
      const res = await send({ to_session_id: bob.id, body: text, from: 'alice' });
      expect(res.status).toBe(201);
      sent.push(res.body);
    }
    expect(sent[0]).toMatchObject({ project_id: projectId, recipient_kind: 'session', recipient: bob.id, body: 'one', from: 'alice', duplicate: false });
    expect(sent.map((m) => m.seq)).toEqual([...sent.map((m) => m.seq)].sort((a, b) => a - b));

    const first = await receive({ session_id: bob.id });
    expect(first.status).toBe(200);
    expect(first.body.messages.map((m: { body: string }) => m.body)).toEqual(['one', 'two', 'three']);
    // Not acknowledged: delivered again.
    expect((await receive({ session_id: bob.id })).body.messages).toHaveLength(3);
    // Acknowledge the first two: only the third comes again.
    const partly = await receive({ session_id: bob.id, ack_through: sent[1].seq });
    expect(partly.body.messages.map((m: { body: string }) => m.body)).toEqual(['three']);
    expect(partly.body.acked_through).toBe(sent[1].seq);
    const ack = await run.http.post(`/projects/${projectId}/messages/ack`, { session_id: bob.id, ack_through: sent[2].seq });
    expect(ack.body).toEqual({ acked_through: sent[2].seq });
    expect((await receive({ session_id: bob.id })).body.messages).toEqual([]);
    // An acknowledgement never moves back.
    await receive({ session_id: bob.id, ack_through: 0 });
    expect((await receive({ session_id: bob.id })).body).toEqual({ messages: [], acked_through: sent[2].seq });
  });

  test('the sending session is recorded by Baton: the receiver can reply to it, and its own broadcast does not come back to it', async () => {
    const dana = await register('dana');
    const eve = await register('eve');
    const sent = await send({ to_session_id: eve.id, body: 'can you look at the parser?', session_id: dana.id });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ from: 'dana', from_session_id: dana.id });
    const got = (await receive({ session_id: eve.id })).body.messages;
    expect(got.map((m: { from_session_id: string; from: string }) => [m.from, m.from_session_id])).toEqual([['dana', dana.id]]);
    // Eve replies to the session that wrote, from the message alone.
    await send({ to_session_id: got[0].from_session_id, body: 'on it', session_id: eve.id });
    expect((await receive({ session_id: dana.id })).body.messages.map((m: { body: string; from_session_id: string }) => [m.body, m.from_session_id])).toEqual([['on it', eve.id]]);
    // A broadcast reaches everyone but the session that sent it.
    await send({ broadcast: true, body: 'parser merged', session_id: dana.id });
    expect((await receive({ session_id: eve.id })).body.messages.map((m: { body: string }) => m.body)).toContain('parser merged');
    expect((await receive({ session_id: dana.id })).body.messages.map((m: { body: string }) => m.body)).not.toContain('parser merged');
    // The session named must be a live session of the project.
    const unknown = await send({ to_session_id: eve.id, body: 'x', session_id: randomUUID() });
    expect(unknown.status).toBe(404);
    await run.http.post(`/sessions/${dana.id}/close`);
    const closed = await send({ to_session_id: eve.id, body: 'x', session_id: dana.id });
    expect([closed.status, closed.body.code]).toEqual([409, 'SESSION_CLOSED']);
  });

  test('named agents and project-wide messages: each reader gets its own and the broadcasts sent after it started', async () => {
    const early = await send({ broadcast: true, body: 'before anyone listened' });
    expect(early.status).toBe(201);
    await receive({ agent: 'reviewer' }); // the agent starts reading here
    const carol = await register('carol');
    await send({ to_agent: 'reviewer', body: 'please review' });
    await send({ to_agent: 'planner', body: 'not for the reviewer' });
    await send({ broadcast: true, body: 'all hands' });
    const reviewer = (await receive({ agent: 'reviewer' })).body.messages.map((m: { body: string }) => m.body);
    expect(reviewer).toEqual(['please review', 'all hands']);
    const planner = (await receive({ agent: 'planner' })).body.messages.map((m: { body: string }) => m.body);
    expect(planner).toEqual(['not for the reviewer']);
    const session = (await receive({ session_id: carol.id })).body.messages.map((m: { body: string }) => m.body);
    expect(session).toEqual(['all hands']);
  });

  test('an idempotency key stores one message: the repeat answers 200 with the stored one; another body under the key is 409', async () => {
    const key = `k-${randomUUID()}`;
    const a = await send({ to_agent: 'idem', body: 'once', idempotency_key: key });
    const b = await send({ to_agent: 'idem', body: 'once', idempotency_key: key });
    expect(a.status).toBe(201);
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ id: a.body.id, seq: a.body.seq, duplicate: true });
    const racing = await Promise.all([1, 2, 3, 4].map(() => send({ to_agent: 'idem', body: 'raced', idempotency_key: `${key}-race` })));
    expect(new Set(racing.map((r) => r.body.id)).size).toBe(1);
    expect(racing.filter((r) => r.status === 201)).toHaveLength(1);
    const conflict = await send({ to_agent: 'idem', body: 'different', idempotency_key: key });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({ code: 'IDEMPOTENCY_CONFLICT', existing_message_id: a.body.id });
    expect((await receive({ agent: 'idem' })).body.messages.map((m: { body: string }) => m.body)).toEqual(['once', 'raced']);
  });

  test('bad input is a 4xx with a detail, never a 5xx', async () => {
    const bob = await register('bad-input');
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ body: 'no target' }, 400, /exactly one of to_session_id, to_agent or broadcast/],
      [{ to_agent: 'a', broadcast: true, body: 'two targets' }, 400, /exactly one/],
      [{ to_agent: 'a', body: '' }, 400, /body must not be empty/],
      [{ to_agent: 'a b', body: 'x' }, 400, /to_agent must be/],
      [{ to_session_id: 'nope', body: 'x' }, 400, /to_session_id must be a UUID/],
      [{ to_session_id: randomUUID(), body: 'x' }, 404, /session not found/],
      [{ to_agent: 'a', body: 'x', colour: 'red' }, 400, /unknown field colour/],
      [{ to_agent: 'a', body: 'x'.repeat(70_000) }, 400, /body must be shorter/],
      [{ to_agent: 'a', body: 'x', idempotency_key: 'has space' }, 400, /idempotency_key/],
    ];
    await expectRefused(send, cases);
    expect((await run.http.post(`/projects/${randomUUID()}/messages`, { to_agent: 'a', body: 'x' })).status).toBe(404);
    expect((await run.http.post('/projects/not-a-uuid/messages', { to_agent: 'a', body: 'x' })).status).toBe(400);
    const rcases: [Record<string, unknown>, RegExp][] = [
      [{}, /exactly one of session_id or agent/],
      [{ session_id: bob.id, agent: 'x' }, /exactly one/],
      [{ agent: 'x', wait_seconds: -1 }, /wait_seconds must not be less than 0/],
      [{ agent: 'x', limit: 0 }, /limit must not be less than 1/],
      [{ agent: 'x', ack_through: 1.5 }, /ack_through must be an integer/],
    ];
    await expectRefused(receive, rcases);
    expect((await receive({ session_id: randomUUID() })).status).toBe(404);
    await run.http.post(`/sessions/${bob.id}/close`);
    const closed = await send({ to_session_id: bob.id, body: 'too late' });
    expect(closed.status).toBe(409);
    expect(closed.body.code).toBe('RECIPIENT_CLOSED');
  });

  test('MCP send_message / receive_messages / ack_messages call the same rules', async () => {
    const client = await connectMcp(run.testApp.url, run.token);
    try {
      const sent = await callTool(client, 'send_message', { project_id: projectId, to_agent: 'mcp-reader', body: 'via mcp' });
      expect(sent.value).toMatchObject({ body: 'via mcp', recipient_kind: 'agent', recipient: 'mcp-reader' });
      const got = await callTool(client, 'receive_messages', { project_id: projectId, agent: 'mcp-reader' });
      expect(got.value.messages.map((m: { id: string }) => m.id)).toEqual([sent.value.id]);
      expect((await callTool(client, 'ack_messages', { project_id: projectId, agent: 'mcp-reader', ack_through: sent.value.seq })).value).toEqual({
        acked_through: sent.value.seq,
      });
      expect((await callTool(client, 'receive_messages', { project_id: projectId, agent: 'mcp-reader' })).value.messages).toEqual([]);
      const bad = await callTool(client, 'send_message', { project_id: projectId, body: 'nowhere' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toBe((await send({ body: 'nowhere' })).body.detail);
      const missing = await callTool(client, 'receive_messages', { project_id: randomUUID(), agent: 'x' });
      expect(missing.structured).toMatchObject({ code: 'PROJECT_NOT_FOUND' });
    } finally {
      await client.close();
    }
  });

  test('without Redis a waiting receive returns within the poll interval of the send, and the dashboard hears message_sent', async () => {
    const socket = await dashboardSocket(run.testApp.url, run.token);
    try {
      const waiting = receive({ agent: 'poller', wait_seconds: 20 });
      await sleep(500);
      const sentAt = Date.now();
      const sent = (await send({ to_agent: 'poller', body: 'wake up' })).body;
      const got = await waiting;
      const latency = Date.now() - sentAt;
      expect(got.body.messages.map((m: { id: string }) => m.id)).toEqual([sent.id]);
      // The same process wakes its own waiters at once; the bound that matters is the poll interval.
      expect(latency).toBeLessThan(POLL_MS + 1000);
      const frame = await waitUntil(() => socket.frames.find((f) => f.event === 'message_sent' && f.data.message.id === sent.id), 5000, 'message_sent');
      expect(frame.data.message).toMatchObject({ body: 'wake up', recipient: 'poller' });
      // A wait with nothing arriving ends after the wait with an empty list.
      const started = Date.now();
      const empty = await receive({ agent: 'nobody-writes', wait_seconds: 1 });
      expect(empty.body.messages).toEqual([]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    } finally {
      socket.ws.close();
    }
  });
});

describePostgres('messages between tenants', () => {
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

  test("another tenant's project and sessions answer 404, and its messages are never received", async () => {
    const a = (await tenantClient(testApp, 'msg-a')).http;
    const b = (await tenantClient(testApp, 'msg-b')).http;
    const pa = (await a.post('/projects', { name: 'A' })).body.id;
    const pb = (await b.post('/projects', { name: 'B' })).body.id;
    const sb = (await b.post('/sessions/register', { project_id: pb, name: 'b1' })).body;
    expect((await a.post(`/projects/${pb}/messages`, { broadcast: true, body: 'intrusion' })).status).toBe(404);
    expect((await a.post(`/projects/${pa}/messages`, { to_session_id: sb.id, body: 'to a foreign session' })).status).toBe(404);
    expect((await a.post(`/projects/${pb}/messages/receive`, { agent: 'x' })).status).toBe(404);
    expect((await a.post(`/projects/${pb}/messages/ack`, { agent: 'x', ack_through: 1 })).status).toBe(404);
    await b.post(`/projects/${pb}/messages`, { to_agent: 'shared-name', body: 'for b only' });
    expect((await a.post(`/projects/${pa}/messages/receive`, { agent: 'shared-name' })).body.messages).toEqual([]);
    expect((await b.post(`/projects/${pb}/messages/receive`, { agent: 'shared-name' })).body.messages).toHaveLength(1);
  });
});

describeRedis('messages with Redis push', () => {
  let testApp: TestApp;
  let http: Http;
  let projectId: string;
  beforeAll(async () => {
    // Polling every 5 s and a 60 s safety poll: a return within 100 ms can only be push.
    testApp = await startApp({
      SERVICE_CACHE_URL: REDIS_URL,
      SERVICE_PUBSUB_PREFIX: uniquePrefix('msg'),
      SERVICE_POLL_INTERVAL_MS: '5000',
      SERVICE_PUSH_SAFETY_POLL_MS: '60000',
    });
    http = new Http(testApp.url);
    projectId = (await http.post('/projects', { name: 'Push' })).body.id;
    await waitUntil(async () => (await http.get('/tunnel/diagnostics/00000000-0000-0000-0000-000000000000')).body.pubsub.availability === 'reachable', 10_000, 'reachable');
  });
  afterAll(async () => {
    await testApp?.close();
  });

  test('a waiting receive_messages returns within 100 ms of the send (median of 15 samples)', async () => {
    // Measured as the time from the send's request to the waiting receive's answer, on a
    // shared 2-core machine: the median over 15 samples keeps one scheduling hiccup from
    // deciding the test, and the bound itself (100 ms) is the requirement.
    const latencies: number[] = [];
    for (let i = 0; i < 15; i++) {
      const agent = `fast-${i}`;
      await http.post(`/projects/${projectId}/messages/receive`, { agent });
      const waiting = http.post(`/projects/${projectId}/messages/receive`, { agent, wait_seconds: 20 });
      await sleep(150);
      const started = performance.now();
      await http.post(`/projects/${projectId}/messages`, { to_agent: agent, body: `ping ${i}` });
      const got = await waiting;
      latencies.push(performance.now() - started);
      expect(got.body.messages.map((m: { body: string }) => m.body)).toEqual([`ping ${i}`]);
    }
    expect(median(latencies)).toBeLessThan(100);
    // A receiver can be woken (and answer) before Redis's reply to the publish reaches the sender,
    // which is when the publish is counted: the last count may land just after the last answer.
    const diagnostics = async () => (await http.get('/tunnel/diagnostics/00000000-0000-0000-0000-000000000000')).body.pubsub;
    await waitUntil(async () => (await diagnostics()).publish.successes >= 15, 5_000, '15 publishes counted');
    const diag = await diagnostics();
    expect(diag.publish.successes).toBeGreaterThanOrEqual(15);
    expect(diag.publish.failures).toBe(0);
  });
});
