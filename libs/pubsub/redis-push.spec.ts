import Redis from 'ioredis';
import { OwnRedis } from '../../test/support/own-redis';
import { uniquePrefix } from '../../test/support/services';
import { waitUntil } from '../../test/support/wait';
import { redisUp } from '../../test/support/suites';
import { Availability, TRANSITIONS } from './availability';
import { Envelope, RedisPush } from './redis-push';

const describeWithRedisServer = redisUp || process.env.CI === 'true' ? describe : describe.skip;

const path = (push: RedisPush) => push.availability.history.map((t) => `${t.from}->${t.to}`);
const reachState = (push: RedisPush, state: Availability, ms = 15_000) => waitUntil(() => push.state === state, ms, `state ${state} (now ${push.state})`);

describe('availability states without a server', () => {
  test('no URL: unconfigured, final; publishing reports unavailable and never throws', async () => {
    const push = new RedisPush({ prefix: uniquePrefix('u') });
    expect(push.state).toBe('unconfigured');
    expect(push.configured).toBe(false);
    expect(await push.publish({ t: 'x', w: ['a'] })).toEqual({ ok: false, reason: 'unavailable' });
    expect(TRANSITIONS.unconfigured).toEqual([]);
    await push.close();
  });

  test('a client that cannot be built: construction_failed with the error class recorded, final', async () => {
    const push = new RedisPush({
      url: 'redis://127.0.0.1:1',
      prefix: uniquePrefix('c'),
      createClient: () => {
        throw Object.assign(new Error('bad TLS options'), { code: 'ERR_TLS_OPTIONS' });
      },
    });
    expect(push.state).toBe('construction_failed');
    expect(push.lastConstructionError?.errorClass).toBe('ERR_TLS_OPTIONS');
    expect(await push.publish({ t: 'x' })).toEqual({ ok: false, reason: 'unavailable' });
    expect(push.availability.move('reachable', 'not allowed')).toBe(false);
    expect(push.availability.refusedMoves).toBe(1);
    await push.close();
  });

  test('idle -> unreachable when nothing listens; the adapter keeps retrying with backoff', async () => {
    const push = new RedisPush({ url: 'redis://127.0.0.1:1', prefix: uniquePrefix('r') });
    expect(push.state).toBe('idle');
    await reachState(push, 'unreachable');
    expect(path(push)).toEqual(['idle->unreachable']);
    expect(push.lastConnectionError?.errorClass).toBe('ECONNREFUSED');
    await push.close();
  });
});

describeWithRedisServer('availability states against a real redis-server', () => {
  let server: OwnRedis;
  let push: RedisPush;

  beforeEach(async () => {
    server = await OwnRedis.start();
  });
  afterEach(async () => {
    await push?.close();
    await server?.stop();
  });

  test('idle -> connected_unverified -> reachable; envelopes reach another instance and not the publisher itself', async () => {
    const prefix = uniquePrefix('ok');
    push = new RedisPush({ url: server.url, prefix });
    const other = new RedisPush({ url: server.url, prefix });
    try {
      await reachState(push, 'reachable');
      await reachState(other, 'reachable');
      expect(path(push)).toEqual(['idle->connected_unverified', 'connected_unverified->reachable']);
      expect(push.connectionGeneration).toBe(1);
      const mine: Envelope[] = [];
      const theirs: Envelope[] = [];
      push.onEnvelope((e) => mine.push(e));
      other.onEnvelope((e) => theirs.push(e));
      const out = await push.publish({ t: 'tenant', w: ['msg:p:a:x'] }, { key: `${prefix}:count`, ttlSeconds: 60 });
      expect(out).toMatchObject({ ok: true, count: 1 });
      await waitUntil(() => theirs.length === 1, 5000, 'envelope');
      expect(theirs[0]).toMatchObject({ t: 'tenant', w: ['msg:p:a:x'] });
      expect(mine).toEqual([]);
    } finally {
      await other.close();
    }
  });

  test('reachable -> unreachable when the server dies, -> connected_unverified -> reachable when it is back', async () => {
    push = new RedisPush({ url: server.url, prefix: uniquePrefix('out') });
    await reachState(push, 'reachable');
    await server.stop();
    await reachState(push, 'unreachable');
    expect(await push.publish({ t: 'x' })).toEqual({ ok: false, reason: 'unavailable' });
    await server.start();
    await reachState(push, 'reachable', 20_000);
    expect(path(push)).toEqual([
      'idle->connected_unverified',
      'connected_unverified->reachable',
      'reachable->unreachable',
      'unreachable->connected_unverified',
      'connected_unverified->reachable',
    ]);
    expect(push.connectionGeneration).toBe(2);
  });

  test('reachable -> degraded when publishes time out on an open connection, -> reachable when they go through again', async () => {
    push = new RedisPush({ url: server.url, prefix: uniquePrefix('deg'), commandTimeoutMs: 200, probeIntervalMs: 200 });
    await reachState(push, 'reachable');
    await server.command('CLIENT', 'PAUSE', 1500, 'WRITE');
    const out = await push.publish({ t: 'x' });
    expect(out).toEqual({ ok: false, reason: 'failed' });
    expect(push.state).toBe('degraded');
    expect(push.lastError?.errorClass).toBeDefined();
    await reachState(push, 'reachable', 10_000);
    expect(path(push).slice(-2)).toEqual(['reachable->degraded', 'degraded->reachable']);
  });

  test('degraded -> unreachable when the server dies while degraded', async () => {
    push = new RedisPush({ url: server.url, prefix: uniquePrefix('deg2'), commandTimeoutMs: 200, probeIntervalMs: 5000 });
    await reachState(push, 'reachable');
    await server.command('CLIENT', 'PAUSE', 3000, 'WRITE');
    await push.publish({ t: 'x' });
    expect(push.state).toBe('degraded');
    await server.stop();
    await reachState(push, 'unreachable');
    expect(path(push).slice(-2)).toEqual(['reachable->degraded', 'degraded->unreachable']);
  });

  test('connected_unverified -> degraded when the first probe publish cannot go through; -> unreachable if the connection drops', async () => {
    await server.command('CLIENT', 'PAUSE', 4000, 'WRITE');
    push = new RedisPush({ url: server.url, prefix: uniquePrefix('unv'), commandTimeoutMs: 200, probeIntervalMs: 10_000 });
    await reachState(push, 'degraded');
    expect(path(push)).toEqual(['idle->connected_unverified', 'connected_unverified->degraded']);
    await server.stop();
    await reachState(push, 'unreachable');
  });

  test('connected_unverified -> unreachable when the connection drops before it is verified', async () => {
    await server.command('CLIENT', 'PAUSE', 4000, 'WRITE');
    push = new RedisPush({ url: server.url, prefix: uniquePrefix('unv2'), commandTimeoutMs: 3000, probeIntervalMs: 10_000 });
    await reachState(push, 'connected_unverified');
    await server.stop();
    await reachState(push, 'unreachable');
    expect(path(push)).toEqual(['idle->connected_unverified', 'connected_unverified->unreachable']);
  });

  test('reachable -> degraded when only the subscription is killed while publishing still works, then back to reachable', async () => {
    // The subscribing connection (built second) waits 1.5 s before reconnecting, so the degraded spell is long enough to see.
    let built = 0;
    const createClient = (url: string) => {
      built += 1;
      const delay = built === 2 ? 1500 : 100;
      const client = new Redis(url, { enableOfflineQueue: false, autoResubscribe: false, maxRetriesPerRequest: 0, commandTimeout: 500, retryStrategy: () => delay });
      client.on('error', () => undefined);
      return client;
    };
    push = new RedisPush({ url: server.url, prefix: uniquePrefix('sub'), probeIntervalMs: 100, createClient });
    await reachState(push, 'reachable');
    const admin = new Redis(server.url);
    try {
      await admin.call('CLIENT', 'KILL', 'TYPE', 'pubsub');
      await reachState(push, 'degraded', 5000);
      await reachState(push, 'reachable', 10_000);
    } finally {
      admin.disconnect();
    }
    expect(path(push).slice(-2)).toEqual(['reachable->degraded', 'degraded->reachable']);
  });
});
