import { Http } from './http';
import { TestDatabase } from './pg-database';
import { postgresUp } from './suites';
import { tenantClient } from './tenant-client';
import { hostedEnv, startApp, TestApp } from './test-app';

export interface RunningBackend {
  testApp: TestApp;
  /** A client with the credentials of one tenant (none needed self-hosted). */
  http: Http;
  token?: string;
  db?: TestDatabase;
  /** Another instance on the same storage (same SQLite file or Postgres database), as a second replica; stop it yourself. */
  sameStorage(env?: Record<string, string>): Promise<TestApp>;
  stop(): Promise<void>;
}

export interface Backend {
  name: string;
  start(env?: Record<string, string>): Promise<RunningBackend>;
}

const sqlite: Backend = {
  name: 'sqlite (self-hosted)',
  async start(env = {}) {
    const testApp = await startApp(env);
    return {
      testApp,
      http: new Http(testApp.url),
      sameStorage: (more = {}) => startApp({ ...env, ...more, SERVICE_DATA_DIR: testApp.config.dataDir }),
      stop: () => testApp.close(),
    };
  },
};

const postgresHosted: Backend = {
  name: 'postgres (hosted)',
  async start(env = {}) {
    const db = await TestDatabase.create();
    const testApp = await startApp(hostedEnv(db.url, env));
    const { token, http } = await tenantClient(testApp, 'tenant-a');
    return {
      testApp,
      db,
      token,
      http,
      sameStorage: (more = {}) => startApp(hostedEnv(db.url, { ...env, ...more })),
      async stop() {
        await testApp.close();
        await db.drop();
      },
    };
  },
};

const postgresSelfHosted: Backend = {
  name: 'postgres (self-hosted)',
  async start(env = {}) {
    const db = await TestDatabase.create();
    const testApp = await startApp({ SERVICE_DB_URL: db.url, ...env });
    return {
      testApp,
      db,
      http: new Http(testApp.url),
      sameStorage: (more = {}) => startApp({ SERVICE_DB_URL: db.url, ...env, ...more }),
      async stop() {
        await testApp.close();
        await db.drop();
      },
    };
  },
};

/**
 * The storage set-ups every feature suite runs on. Without Postgres (and
 * without CI=true) only SQLite runs, and the skip is reported by global setup.
 */
export function backends(): Backend[] {
  if (!postgresUp) {
    // eslint-disable-next-line no-console -- the skip is reported in the jest output, where whoever runs the suites reads it
    console.warn(`postgres backends skipped: ${process.env.BATON_TEST_PG_STATUS}`);
    return [sqlite];
  }
  return [sqlite, postgresHosted, postgresSelfHosted];
}

/** describe.each rows, one per storage set-up: `describe.each(eachBackend())('goals on %s', (_name, backend) => ...)`. */
export function eachBackend() {
  return backends().map((b) => [b.name, b] as const);
}

/**
 * The row of the hosted set-up only: the one with tenants, where a suite
 * proves that one tenant cannot see another's data (see tenantClient). Empty
 * when Postgres is not there.
 */
export function hostedBackend() {
  return eachBackend().filter(([name]) => name === postgresHosted.name);
}

/** The self-hosted rows only (SQLite, and Postgres when it is there): features that need the server's own disk, such as a local checkout. */
export function selfHostedBackends() {
  return eachBackend().filter(([name]) => name !== postgresHosted.name);
}
