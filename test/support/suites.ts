/**
 * describe() for suites that need Postgres or Redis: skipped, with the reason
 * printed, when the service is down and CI is not set (global-setup fails the
 * run instead when CI=true).
 */
function describeNeeding(status: string | undefined, service: string) {
  if (status === 'up') return describe;
  return (name: string, fn: () => void) => {
    // eslint-disable-next-line no-console -- the skip and its reason are reported in the jest output, where whoever runs the suites reads it
    console.warn(`skipping "${name}": ${status ?? `${service} status unknown`}`);
    describe.skip(name, fn);
  };
}

export const describePostgres = describeNeeding(process.env.BATON_TEST_PG_STATUS, 'Postgres');

export const describeRedis = process.env.BATON_TEST_PG_STATUS === 'up' ? describeNeeding(process.env.BATON_TEST_REDIS_STATUS, 'Redis') : describePostgres;

export const postgresUp = process.env.BATON_TEST_PG_STATUS === 'up';
export const redisUp = process.env.BATON_TEST_REDIS_STATUS === 'up';
