import { Http } from './http';
import { TestDatabase } from './pg-database';
import { postgresUp } from './suites';
import { hostedEnv, provisionTenant, startApp, TestApp } from './test-app';

export interface RunningBackend {
  testApp: TestApp;
  /** A client with the credentials of one tenant (none needed self-hosted). */
  http: Http;
  token?: string;
  db?: TestDatabase;
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
    return { testApp, http: new Http(testApp.url), stop: () => testApp.close() };
  },
};

const postgresHosted: Backend = {
  name: 'postgres (hosted)',
  async start(env = {}) {
    const db = await TestDatabase.create();
    const testApp = await startApp(hostedEnv(db.url, env));
    const { token } = await provisionTenant(testApp, 'tenant-a');
    return {
      testApp,
      db,
      token,
      http: new Http(testApp.url, token),
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
