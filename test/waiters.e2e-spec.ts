import { runWithTenant, TenantDb } from '../libs/tenancy';
import { MessageStore, Reader } from '../src/modules/messages/message-store';
import { PushService } from '../src/modules/push/push.service';
import { TenantResolver } from '../src/modules/tenants/tenant-resolver.service';
import { eachBackend, hostedBackend, RunningBackend } from './support/backends';
import { Http } from './support/http';
import { seededRandom } from './support/random';
import { REDIS_URL, uniquePrefix } from './support/services';
import { describeRedis } from './support/suites';
import { TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

/**
 * Waiting requests share one database read per project (messages) or tenant (questions) and
 * interval. Two instances on one storage and no Redis: a write on the other instance reaches a
 * waiter only through that shared read, so a change the coalescing missed would show here as a
 * message that never arrives (or arrives twice).
 */
describe.each(eachBackend())('shared waiting reads on %s', (_name, backend) => {
  let running: RunningBackend;
  let second: TestApp;
  let a: Http;
  let b: Http;
  let projectId: string;

  beforeAll(async () => {
    const env = { SERVICE_POLL_INTERVAL_MS: '150', SERVICE_PUSH_SAFETY_POLL_MS: '150' };
    running = await backend.start(env);
    second = await running.sameStorage(env);
    a = running.http;
    b = new Http(second.url, running.token);
    projectId = (await a.post('/projects', { name: 'Waiters' })).body.id;
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await running?.stop();
  });

  test('random senders, receivers and acks on two instances: every receiver gets every message once', async () => {
    const random = seededRandom(24);
    const agents = Array.from({ length: 10 }, (_, i) => `rx-${i}`);
    const home = new Map(agents.map((agent) => [agent, random.pick([a, b])]));
    // A first receive starts each agent: it gets the project's messages sent after it.
    for (const agent of agents) await (home.get(agent) as Http).post(`/projects/${projectId}/messages/receive`, { agent });

    const expected = new Map<string, number[]>(agents.map((agent) => [agent, []]));
    const got = new Map<string, number[]>(agents.map((agent) => [agent, []]));
    let sending = true;

    const receiver = async (agent: string) => {
      const http = home.get(agent) as Http;
      let acked = 0;
      while (sending || got.get(agent)!.length < expected.get(agent)!.length) {
        // Acknowledge in the receive itself, or apart, or (once in a while) late: an unacknowledged message comes back.
        const how = random.int(3);
        if (how === 1 && acked > 0) expect((await http.post(`/projects/${projectId}/messages/ack`, { agent, ack_through: acked })).status).toBe(200);
        const res = await http.post(`/projects/${projectId}/messages/receive`, { agent, wait_seconds: 5, ...(how === 0 && acked > 0 ? { ack_through: acked } : {}) });
        expect(res.status).toBe(200);
        const fresh = (res.body.messages as { seq: number }[]).map((m) => m.seq).filter((seq) => seq > acked);
        if (how === 2 && fresh.length > 0 && random.next() < 0.5) continue; // not acknowledged: the same messages come again
        got.get(agent)!.push(...fresh);
        if (fresh.length > 0) acked = Math.max(...fresh);
      }
    };
    const receivers = agents.map(receiver);

    for (let i = 0; i < 60; i++) {
      const http = random.pick([a, b]);
      const broadcast = random.next() < 0.25;
      const to = random.pick(agents);
      const sent = await http.post(`/projects/${projectId}/messages`, broadcast ? { broadcast: true, body: `all ${i}` } : { to_agent: to, body: `to ${to} ${i}` });
      expect(sent.status).toBe(201);
      for (const agent of broadcast ? agents : [to]) expected.get(agent)!.push(sent.body.seq);
      if (random.next() < 0.3) await sleep(random.int(300));
    }
    sending = false;
    await Promise.all(receivers);
    for (const agent of agents) expect(got.get(agent)).toEqual(expected.get(agent));
  }, 120_000);

  test('many waiters of one project share one read, and a message sent on the other instance wakes only its receiver', async () => {
    const push = second.app.get(PushService);
    const agents = Array.from({ length: 8 }, (_, i) => `idle-${i}`);
    for (const agent of agents) await b.post(`/projects/${projectId}/messages/receive`, { agent });
    const answers = new Map<string, Promise<{ body: { messages: { body: string }[] } }>>();
    for (const agent of agents) answers.set(agent, b.post(`/projects/${projectId}/messages/receive`, { agent, wait_seconds: 20 }));
    await waitUntil(async () => push.shared.watcherCount === agents.length, 10_000, 'every receiver waits');
    expect(push.shared.scopeCount).toBe(1);

    const sent = await a.post(`/projects/${projectId}/messages`, { to_agent: 'idle-3', body: 'only you' });
    const woken = await answers.get('idle-3')!;
    expect(woken.body.messages.map((m) => m.body)).toEqual(['only you']);
    // The others still wait on the same shared read.
    await sleep(500);
    expect(push.shared.watcherCount).toBe(agents.length - 1);

    await a.post(`/projects/${projectId}/messages`, { broadcast: true, body: 'everyone' });
    for (const agent of agents.filter((x) => x !== 'idle-3')) {
      expect((await answers.get(agent)!).body.messages.map((m) => m.body)).toEqual(['everyone']);
    }
    expect(sent.status).toBe(201);
  }, 60_000);

  test('receivers woken together by one broadcast (read together) get the answers each would get alone', async () => {
    const push = running.testApp.app.get(PushService);
    const s1 = (await a.post('/sessions/register', { project_id: projectId, name: 'caster' })).body.id as string;
    const s2 = (await a.post('/sessions/register', { project_id: projectId, name: 'listener' })).body.id as string;
    const readers = [{ session_id: s1 }, { session_id: s2 }, ...['b0', 'b1', 'b2', 'b3'].map((agent) => ({ agent }))];
    for (const r of readers) await a.post(`/projects/${projectId}/messages/receive`, r);
    const before = push.registry.waiting;
    const woken = readers.map((r) => a.post(`/projects/${projectId}/messages/receive`, { ...r, wait_seconds: 5, limit: 2 }));
    await waitUntil(async () => push.registry.waiting >= before + readers.length, 10_000, 'every reader waits');
    const cast = (await a.post(`/projects/${projectId}/messages`, { broadcast: true, session_id: s1, body: 'together' })).body;
    const answers = await Promise.all(woken);
    // Read again one by one (nothing was acknowledged): the same answers.
    for (const [i, r] of readers.entries()) {
      const alone = await a.post(`/projects/${projectId}/messages/receive`, { ...r, limit: 2 });
      expect(answers[i].body).toEqual(alone.body);
    }
    // The sender's own broadcast never comes back to it; everyone else gets it.
    expect(answers[0].body.messages).toEqual([]);
    for (const answer of answers.slice(1)) expect(answer.body.messages.map((m: { seq: number }) => m.seq)).toEqual([cast.seq]);
  }, 60_000);

  test('one statement for many readers answers each as its own read does: limits, acknowledgements, own and project-wide messages', async () => {
    const p = (await a.post('/projects', { name: 'Read together' })).body.id as string;
    const s1 = (await a.post('/sessions/register', { project_id: p, name: 'one' })).body.id as string;
    const s2 = (await a.post('/sessions/register', { project_id: p, name: 'two' })).body.id as string;
    const agents = ['c0', 'c1', 'c2', 'c3'];
    for (const r of [{ session_id: s1 }, { session_id: s2 }, ...agents.map((agent) => ({ agent }))]) await a.post(`/projects/${p}/messages/receive`, r);
    const send = async (body: Record<string, unknown>) => (await a.post(`/projects/${p}/messages`, { body: 'x', ...body })).body.seq as number;
    for (let i = 0; i < 3; i++) await send({ to_agent: 'c0' });
    const c1 = await send({ to_agent: 'c1' });
    await send({ broadcast: true, session_id: s1 });
    for (let i = 0; i < 2; i++) await send({ to_session_id: s2 });
    await send({ broadcast: true });
    const c3 = await send({ to_agent: 'c3' });
    await send({ to_agent: 'c3' });
    await a.post(`/projects/${p}/messages/ack`, { agent: 'c1', ack_through: c1 });
    await a.post(`/projects/${p}/messages/ack`, { agent: 'c3', ack_through: c3 });

    const readers: Reader[] = [
      { kind: 'session', name: s1 },
      { kind: 'session', name: s2 },
      ...agents.map((name) => ({ kind: 'agent' as const, name })),
      { kind: 'agent', name: 'never-read' },
    ];
    const testApp = running.testApp;
    const db = testApp.app.get(TenantDb);
    const store = new MessageStore(db.dialect);
    const tenant = await testApp.app.get(TenantResolver).resolve(running.token ? `Bearer ${running.token}` : undefined);
    for (const limit of [1, 2, 50]) {
      const together = await runWithTenant(tenant, () => db.read((m) => store.pendingMany(m, p, readers, limit)));
      // A reader without a cursor is left out; every other one gets what it reads alone.
      expect([...together.keys()].sort()).toEqual(
        readers
          .slice(0, -1)
          .map((r) => `${r.kind}:${r.name}`)
          .sort(),
      );
      for (const r of readers.slice(0, -1)) {
        const alone = await runWithTenant(tenant, () => db.read((m) => store.pending(m, p, r, limit)));
        const got = together.get(`${r.kind}:${r.name}`)!;
        expect({ seqs: got.rows.map((row) => Number(row.seq)), acked: got.ackedSeq, last: got.lastSeq }).toEqual({
          seqs: alone.rows.map((row) => Number(row.seq)),
          acked: alone.ackedSeq,
          last: alone.lastSeq,
        });
        // The single read's rows also carry its cursor columns, which no answer shows.
        const message = ({ acked_seq: _a, last_seq: _l, ...row }: Record<string, unknown>) => row;
        expect(got.rows.map((row) => message({ ...row }))).toEqual(alone.rows.map((row) => message({ ...row })));
      }
    }
    // What the readers hold, as a person reading the answers would check it.
    const all = await runWithTenant(tenant, () => db.read((m) => store.pendingMany(m, p, readers, 50)));
    expect(all.get('agent:c0')!.rows).toHaveLength(5);
    expect(all.get('agent:c1')!.rows).toHaveLength(2);
    expect(all.get(`session:${s1}`)!.rows).toHaveLength(1);
    expect(all.get(`session:${s2}`)!.rows).toHaveLength(4);
    expect(all.get('agent:c3')).toMatchObject({ ackedSeq: c3 });
    expect(all.get('agent:c3')!.rows).toHaveLength(1);
  }, 60_000);

  test('a question answered on the other instance ends a wait through the shared read', async () => {
    const session = (await a.post('/sessions/register', { project_id: projectId, name: 'asker' })).body.id;
    const questions = [];
    for (let i = 0; i < 3; i++) questions.push((await a.post(`/projects/${projectId}/hitl`, { question: `Q${i}?`, session_id: session })).body.id as string);
    const waits = questions.map((id) => b.get(`/hitl/${id}?wait=20`));
    await waitUntil(async () => second.app.get(PushService).shared.watcherCount >= 3, 10_000, 'every wait joined the shared read');
    await a.patch(`/hitl/${questions[1]}`, { answer: 'yes' });
    const answered = await waits[1];
    expect(answered.body).toMatchObject({ id: questions[1], status: 'answered', answer: 'yes' });
    await a.patch(`/hitl/${questions[0]}`, { action: 'dismiss' });
    await a.patch(`/hitl/${questions[2]}`, { answer: 'no' });
    expect((await waits[0]).body.status).toBe('dismissed');
    expect((await waits[2]).body).toMatchObject({ status: 'answered', answer: 'no' });
  }, 60_000);
});

/**
 * Hosted with Redis, a free workspace (no push: its waiters poll). Every wake-up published moves the
 * tenant's waits version in Redis, and a shared read whose tenant's version has not moved since its
 * last read is skipped: while nothing happens the waiters cost key reads, not database reads. The
 * safety poll is set far beyond the waits here, so a change the version did not announce would end
 * the wait empty.
 */
describeRedis('shared waiting reads behind the waits version in Redis', () => {
  const [[, hosted]] = hostedBackend();
  let running: RunningBackend;
  let second: TestApp;
  let a: Http;
  let b: Http;
  let projectId: string;
  const reads = async (http: Http, outcome: 'read' | 'skipped') =>
    Number(new RegExp(`^baton_shared_wait_reads\\{outcome="${outcome}"\\} (\\d+)`, 'm').exec((await http.get('/metrics')).text)?.[1] ?? NaN);

  beforeAll(async () => {
    const env = { SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('waits'), SERVICE_POLL_INTERVAL_MS: '100', SERVICE_PUSH_SAFETY_POLL_MS: '60000' };
    running = await hosted.start(env);
    second = await running.sameStorage(env);
    a = running.http;
    b = new Http(second.url, running.token);
    projectId = (await a.post('/projects', { name: 'Still waiters' })).body.id;
  }, 60_000);
  afterAll(async () => {
    await second?.close();
    await running?.stop();
  });

  test('while nothing is sent the waiting scope is not read; a message and a question answered on the other instance still end their waits', async () => {
    const push = second.app.get(PushService);
    await b.post(`/projects/${projectId}/messages/receive`, { agent: 'still' });
    const waiting = b.post(`/projects/${projectId}/messages/receive`, { agent: 'still', wait_seconds: 20 });
    await waitUntil(async () => push.shared.watcherCount === 1, 10_000, 'the receiver waits');
    // The first read of the scope has nothing to compare its version with; from then on it is still.
    await sleep(300);
    const before = { read: await reads(b, 'read'), skipped: await reads(b, 'skipped') };
    await sleep(1500);
    const after = { read: await reads(b, 'read'), skipped: await reads(b, 'skipped') };
    expect(after.read).toBe(before.read);
    expect(after.skipped - before.skipped).toBeGreaterThanOrEqual(5);

    expect((await a.post(`/projects/${projectId}/messages`, { to_agent: 'still', body: 'heard through the version' })).status).toBe(201);
    expect((await waiting).body.messages.map((m: { body: string }) => m.body)).toEqual(['heard through the version']);
    expect(await reads(b, 'read')).toBeGreaterThan(after.read);

    const session = (await a.post('/sessions/register', { project_id: projectId, name: 'asker' })).body.id;
    const question = (await a.post(`/projects/${projectId}/hitl`, { question: 'Ship it?', session_id: session })).body.id as string;
    const asked = b.get(`/hitl/${question}?wait=20`);
    await waitUntil(async () => push.shared.watcherCount === 1, 10_000, 'the question is waited on');
    await sleep(300);
    await a.patch(`/hitl/${question}`, { answer: 'yes' });
    expect((await asked).body).toMatchObject({ status: 'answered', answer: 'yes' });
  }, 60_000);
});
