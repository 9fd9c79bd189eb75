import { Http } from './support/http';
import { OwnRedis } from './support/own-redis';
import { TestDatabase } from './support/pg-database';
import { uniquePrefix } from './support/services';
import { median } from './support/stats';
import { describeRedis } from './support/suites';
import { startApp, TestApp } from './support/test-app';
import { sleep, waitUntil } from './support/wait';

const LOCAL = '00000000-0000-0000-0000-000000000000';
const POLL_MS = 2000;

/**
 * Redis (a private redis-server) is stopped in the middle of a stream of
 * 1,000 messages and started again. Two instances share one Postgres
 * database: the sender talks to A, the receiver long-polls B with
 * acknowledgements like an agent would, so a wake-up has to cross instances.
 */
describeRedis('a Redis outage while 1,000 messages are sent', () => {
  let redis: OwnRedis;
  let db: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let http: Http;
  let reader: Http;
  let projectId: string;

  beforeAll(async () => {
    redis = await OwnRedis.start();
    db = await TestDatabase.create();
    const env = {
      SERVICE_DB_URL: db.url,
      SERVICE_CACHE_URL: redis.url,
      SERVICE_PUBSUB_PREFIX: uniquePrefix('outage'),
      SERVICE_POLL_INTERVAL_MS: String(POLL_MS),
      SERVICE_PUSH_SAFETY_POLL_MS: '60000',
    };
    a = await startApp(env);
    b = await startApp(env);
    http = new Http(a.url);
    reader = new Http(b.url);
    projectId = (await http.post('/projects', { name: 'Outage' })).body.id;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await redis?.stop();
  });

  const pubsub = async (client = http) => (await client.get(`/tunnel/diagnostics/${LOCAL}`)).body.pubsub;

  test('every message is received exactly once after acknowledgement; reachable -> unreachable -> reachable; push latency recovers', async () => {
    await waitUntil(async () => (await pubsub()).availability === 'reachable' && (await pubsub(reader)).availability === 'reachable', 10_000, 'reachable');
    const seen: string[] = [];
    let stop = false;
    let ack: number | undefined;
    const receiver = (async () => {
      while (!stop || seen.length < 1000) {
        const res = await reader.post(`/projects/${projectId}/messages/receive`, {
          agent: 'collector',
          wait_seconds: 5,
          limit: 200,
          ...(ack !== undefined ? { ack_through: ack } : {}),
        });
        expect(res.status).toBe(200);
        for (const m of res.body.messages) seen.push(m.body);
        if (res.body.messages.length) ack = res.body.messages[res.body.messages.length - 1].seq;
        if (stop && seen.length >= 1000) break;
      }
    })();

    const states: string[] = [(await pubsub()).availability];
    for (let i = 0; i < 1000; i++) {
      if (i === 300) {
        await redis.stop();
        states.push((await waitUntil(async () => ((await pubsub()).availability === 'unreachable' ? 'unreachable' : undefined), 10_000, 'unreachable')) as string);
      }
      if (i === 700) {
        await redis.start();
        states.push(
          (await waitUntil(
            async () => ((await pubsub()).availability === 'reachable' && (await pubsub(reader)).availability === 'reachable' ? 'reachable' : undefined),
            20_000,
            'reachable again',
          )) as string,
        );
      }
      const res = await http.post(`/projects/${projectId}/messages`, { to_agent: 'collector', body: `m-${i}` });
      expect(res.status).toBe(201);
    }
    stop = true;
    await receiver;
    // Acknowledge the last batch: nothing comes again.
    const after = await reader.post(`/projects/${projectId}/messages/receive`, { agent: 'collector', ack_through: ack });
    expect(after.body.messages).toEqual([]);

    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(seen).toEqual(Array.from({ length: 1000 }, (_, i) => `m-${i}`));
    expect(states).toEqual(['reachable', 'unreachable', 'reachable']);
    const diag = await pubsub();
    const moves = diag.transitions.map((t: { from: string; to: string }) => `${t.from}->${t.to}`);
    expect(moves).toEqual(expect.arrayContaining(['reachable->unreachable', 'unreachable->connected_unverified', 'connected_unverified->reachable']));
    expect(diag.publish.fallbacks).toBeGreaterThan(0);
    expect(diag.connection_generation).toBeGreaterThanOrEqual(2);
    expect(diag.last_connection_error_class).not.toBeNull();

    // Push latency after recovery: a receiver waiting on B answers a send on A well inside
    // the 2 s poll interval (median of 9 samples, so one scheduling hiccup does not decide).
    const latencies: number[] = [];
    for (let i = 0; i < 9; i++) {
      const agent = `after-${i}`;
      await reader.post(`/projects/${projectId}/messages/receive`, { agent });
      const waiting = reader.post(`/projects/${projectId}/messages/receive`, { agent, wait_seconds: 10 });
      await sleep(100);
      const started = performance.now();
      await http.post(`/projects/${projectId}/messages`, { to_agent: agent, body: 'fast again' });
      expect((await waiting).body.messages).toHaveLength(1);
      latencies.push(performance.now() - started);
    }
    expect(median(latencies)).toBeLessThan(100);
  }, 180_000);
});
