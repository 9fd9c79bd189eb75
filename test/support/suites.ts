/**
 * describe(), or, when `problem` says why the suite cannot run here, a skipped describe() with that
 * reason printed. The one place a suite is skipped: global-setup fails the run instead when CI=true
 * and a shared service is down, and suites with a service of their own pass no problem under CI.
 */
export function describeUnless(problem: string | undefined) {
  if (!problem) return describe;
  return (name: string, fn: () => void) => {
    // eslint-disable-next-line no-console -- the skip and its reason are reported in the jest output, where whoever runs the suites reads it
    console.warn(`skipping "${name}": ${problem}`);
    describe.skip(name, fn);
  };
}

/** Why a shared service cannot be used, from global-setup's probe; undefined when it is up. */
function serviceProblem(status: string | undefined, service: string): string | undefined {
  return status === 'up' ? undefined : (status ?? `${service} status unknown`);
}

/** describe() for suites that need Postgres or Redis: skipped, with the reason printed, when the service is down and CI is not set. */
export const describePostgres = describeUnless(serviceProblem(process.env.BATON_TEST_PG_STATUS, 'Postgres'));

export const describeRedis = process.env.BATON_TEST_PG_STATUS === 'up' ? describeUnless(serviceProblem(process.env.BATON_TEST_REDIS_STATUS, 'Redis')) : describePostgres;

export const postgresUp = process.env.BATON_TEST_PG_STATUS === 'up';
export const redisUp = process.env.BATON_TEST_REDIS_STATUS === 'up';
