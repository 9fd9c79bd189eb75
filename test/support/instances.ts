import { TestDatabase } from './pg-database';
import { ServerProcess, startServerProcess } from './processes';
import { REDIS_URL, uniquePrefix } from './services';
import { hostedEnv, provisionTenant, startApp, TestApp } from './test-app';

export interface InstancesOptions {
  /** Hosted (a control plane, tenants, tokens) or self-hosted on the one Postgres database. Default: hosted. */
  hosted?: boolean;
  /** Share Redis (pub/sub under a prefix of their own, rate-limit counters). Default: false. */
  redis?: boolean;
  /** Tenants provisioned before the servers start (hosted only), each with an API token. */
  tenants?: string[];
  /** The plan every tenant is put on; left out, the plan provisioning gives. */
  plan?: 'paid' | 'free';
  /** Runs against an in-process app on the same database before the servers start (hosted only): sign-ins, seeds. */
  prepare?: (setup: TestApp, db: TestDatabase) => Promise<void>;
  /** The URL the servers (and the set-up app) reach the database at, from the database's own: a pooler in front of it. Default: its own. */
  serverDbUrl?: (databaseUrl: string) => string;
  /** Environment of every server, over the defaults above. */
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface Instances {
  db: TestDatabase;
  /** The environment every server runs with: start another like them with `startServerProcess(instances.env)`. */
  env: Record<string, string>;
  servers: ServerProcess[];
  tenants: { tenant_id: string; token: string }[];
  /** Stops every server still running, then drops the database. */
  stop(): Promise<void>;
}

/**
 * `count` built servers (`node dist/src/main.js`, needs `npm run build`) on one fresh Postgres
 * database, and optionally one Redis: replicas of one deployment. The first one runs the
 * migrations alone; the others start together once it is up.
 */
export async function startInstances(count: number, options: InstancesOptions = {}): Promise<Instances> {
  const hosted = options.hosted ?? true;
  const db = await TestDatabase.create();
  const shared: Record<string, string> = options.redis ? { SERVICE_CACHE_URL: REDIS_URL, SERVICE_PUBSUB_PREFIX: uniquePrefix('instances') } : {};
  const dbUrl = options.serverDbUrl?.(db.url) ?? db.url;
  const env = hosted ? hostedEnv(dbUrl, { ...shared, ...options.env }) : { SERVICE_DB_URL: dbUrl, ...shared, ...options.env };
  const tenants: { tenant_id: string; token: string }[] = [];
  const servers: ServerProcess[] = [];
  const stop = async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await db.drop();
  };
  try {
    if (hosted) {
      const setup = await startApp(env);
      try {
        for (const name of options.tenants ?? []) tenants.push(await provisionTenant(setup, name));
        await options.prepare?.(setup, db);
      } finally {
        await setup.close();
      }
      if (options.plan) await db.query('UPDATE control.tenants SET plan = $1', [options.plan]);
    }
    const start = () => startServerProcess(env, { timeoutMs: options.timeoutMs ?? 30_000 });
    servers.push(await start());
    const rest = await Promise.allSettled(Array.from({ length: count - 1 }, start));
    for (const r of rest) if (r.status === 'fulfilled') servers.push(r.value);
    const failed = rest.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await stop();
    throw error;
  }
  return { db, env, servers, tenants, stop };
}

/** Two `node dist/src/main.js` processes on one database (and the Redis `env` names), hosted, with `tenants` provisioned on `plan`: needs `npm run build` first. */
export async function twoProcesses(env: Record<string, string>, tenants: string[], plan: 'paid' | 'free' = 'paid') {
  const { db, servers, tenants: provisioned } = await startInstances(2, { env, tenants, plan });
  return { db, servers, tokens: provisioned.map((p) => p.token), ids: provisioned.map((p) => p.tenant_id) };
}
