import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { PG_ADMIN_URL } from './services';

/** A Postgres database created for one suite and dropped after it, with the tenant roles it made. */
export class TestDatabase {
  private constructor(
    readonly name: string,
    readonly url: string,
  ) {}

  /**
   * Commits in a test database do not wait for the WAL to reach the disk (synchronous_commit off,
   * set on the database, so every connection to it has it). Nothing a suite asserts depends on
   * that wait: a committed row is visible at once either way, and the suites that crash a server
   * crash Baton, or a private cluster of their own (test/support/private-postgres.ts). It saves a
   * disk flush per transaction, which the provisioning of a thousand tenants feels most.
   */
  static async create(prefix = 'baton_test'): Promise<TestDatabase> {
    const name = `${prefix}_${randomBytes(5).toString('hex')}`;
    await admin(async (c) => {
      await c.query(`CREATE DATABASE "${name}"`);
      await c.query(`ALTER DATABASE "${name}" SET synchronous_commit = off`);
    });
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    return new TestDatabase(name, url.toString());
  }

  /** Runs SQL directly against this database, as the admin user. */
  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new Client({ connectionString: this.url });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as T[];
    } finally {
      await client.end();
    }
  }

  async drop(): Promise<void> {
    let roles: string[] = [];
    try {
      const rows = await this.query<{ role_name: string | null }>("SELECT role_name FROM control.tenants WHERE to_regclass('control.tenants') IS NOT NULL");
      roles = rows.map((r) => r.role_name).filter((r): r is string => Boolean(r));
    } catch {
      // no control plane in this database
    }
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`));
    await TestDatabase.dropRoles(roles);
  }

  /** Drops cluster-wide roles a suite made (after the databases that use them). */
  static async dropRoles(roles: string[]): Promise<void> {
    await admin(async (c) => {
      for (let i = 0; i < roles.length; i += 200) {
        await c.query(
          roles
            .slice(i, i + 200)
            .map((r) => `DROP ROLE IF EXISTS "${r}"`)
            .join('; '),
        );
      }
    });
  }
}

/**
 * Backends of `client`'s database, other than its own, running `pg_sleep` now: how many of a
 * suite's slow statements hold a connection. Other suites' databases are left out, since suites
 * run side by side on one cluster.
 */
export async function sleepingBackends(client: Client): Promise<number> {
  const { rows } = await client.query(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'SELECT pg_sleep%' AND pid <> pg_backend_pid()",
  );
  return rows[0].n;
}

async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
