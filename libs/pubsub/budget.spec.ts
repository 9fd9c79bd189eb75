import Redis from 'ioredis';
import { REDIS_URL, uniquePrefix } from '../../test/support/services';
import { redisUp } from '../../test/support/suites';
import { budgetCountKey, monthOf, PushBudget } from './budget';

const describeWithRedis = redisUp || process.env.CI === 'true' ? describe : describe.skip;

describeWithRedis('push budget tiers (shared Redis, unique prefix)', () => {
  let redis: Redis;
  let now: Date;
  const prefix = uniquePrefix('budget');
  const thresholds = { warning: 3, disable: 5, adminAlert: 8 };
  const budget = () =>
    new PushBudget(
      () => redis,
      prefix,
      thresholds,
      () => now,
    );

  beforeAll(() => {
    redis = new Redis(REDIS_URL);
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  test('each tier fires once per month, even when two instances observe the count; the pause holds until the month changes', async () => {
    now = new Date('2026-03-30T23:59:00Z');
    const a = budget();
    const b = budget();
    const fired: string[] = [];
    for (let count = 1; count <= 10; count++) {
      fired.push(...(await a.observe('t1', count)), ...(await b.observe('t1', count)));
    }
    expect(fired).toEqual(['warning', 'disable', 'admin_alert']);
    expect(a.isPaused('t1')).toBe(true);
    expect(a.status('t1')).toMatchObject({ month: '2026-03', tier: 'admin_alert', push_paused: true });
    expect(a.isPaused('t2')).toBe(false);

    now = new Date('2026-04-01T00:00:01Z');
    expect(a.isPaused('t1')).toBe(false);
    expect(a.status('t1')).toMatchObject({ month: '2026-04', count: 0, tier: 'ok' });
    expect(await a.observe('t1', 3)).toEqual(['warning']);
  });

  test('an instance learns a pause from the counter another instance raised', async () => {
    now = new Date('2026-05-10T12:00:00Z');
    await redis.set(budgetCountKey(prefix, 't3', monthOf(now)), '6');
    const c = budget();
    expect(c.isPaused('t3')).toBe(false);
    expect(await c.refresh('t3')).toEqual(['warning', 'disable']);
    expect(c.isPaused('t3')).toBe(true);
    expect(c.status('t3').tier).toBe('disabled');
  });
});
