import { probePostgres, probeRedis } from './services';

/**
 * Probes the services the suites need, once. With CI=true an unreachable
 * service fails the run; otherwise the suites that need it report themselves
 * skipped, with the reason.
 */
export default async function globalSetup() {
  const [pg, redis] = await Promise.all([probePostgres(), probeRedis()]);
  const ci = process.env.CI === 'true';
  const down = [pg, redis].filter((s) => !s.up).map((s) => s.reason);
  if (ci && down.length > 0) throw new Error(`CI=true and a service the tests need is down:\n${down.join('\n')}`);
  process.env.BATON_TEST_PG_STATUS = pg.up ? 'up' : (pg.reason ?? 'down');
  process.env.BATON_TEST_REDIS_STATUS = redis.up ? 'up' : (redis.reason ?? 'down');
}
