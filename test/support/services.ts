import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import Redis from 'ioredis';

export const PG_ADMIN_URL = process.env.BATON_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.BATON_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A unique channel and key prefix, so suites sharing one Redis never see each other's traffic. */
export function uniquePrefix(name: string): string {
  return `baton-test-${name}-${randomBytes(4).toString('hex')}`;
}

export interface ServiceStatus {
  up: boolean;
  reason?: string;
}

export async function probePostgres(): Promise<ServiceStatus> {
  const client = new Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { up: true };
  } catch (error) {
    return { up: false, reason: `Postgres at ${new URL(PG_ADMIN_URL).host} is unreachable (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

export async function probeRedis(): Promise<ServiceStatus> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { up: true };
  } catch (error) {
    return { up: false, reason: `Redis at ${new URL(REDIS_URL).host} is unreachable (${(error as Error).message})` };
  } finally {
    client.disconnect();
  }
}
