import { hostname } from 'node:os';
import { DataSource, QueryRunner } from 'typeorm';
import { HeldLock, LockTransaction } from './lock-transaction';

/** Advisory lock key held while one runner migrates; every runner (a booting instance, `npm run migrate`) takes it. */
export const MIGRATION_LOCK = 0x6261746f; // "bato"

/** How often a runner waiting for the lock tries again. */
const RETRY_MS = 250;

/** Who holds the migration lock, as Postgres sees that connection. */
export interface LockHolder {
  pid: number;
  application_name: string;
  client_addr: string | null;
  since: string | null;
}

/** The lock stayed with another runner for longer than this runner would wait. */
export class MigrationLockBusy extends Error {
  constructor(
    readonly holder: LockHolder | null,
    readonly waitedMs: number,
  ) {
    super(`another runner holds the migration lock${holder ? ` (${describeHolder(holder)})` : ''}; waited ${Math.round(waitedMs / 1000)} s`);
  }
}

export function describeHolder(holder: LockHolder): string {
  const parts = [`"${holder.application_name || 'unnamed'}"`, `backend pid ${holder.pid}`];
  if (holder.client_addr) parts.push(`from ${holder.client_addr}`);
  if (holder.since) parts.push(`since ${holder.since}`);
  return parts.join(', ');
}

export interface MigrationLockOptions {
  /** How long to wait for a runner that holds the lock; 0 tries once. */
  waitMs: number;
  /** Called once when the lock is busy and again every `reportEveryMs` of waiting. */
  onWait?: (holder: LockHolder | null, waitedMs: number) => void;
  reportEveryMs?: number;
  /** Shown to other runners that find the lock taken (Postgres application_name of the holding connection). */
  label: string;
}

/**
 * Takes the cluster-wide migration lock on the shared Postgres: a transaction-scoped advisory
 * lock (`pg_try_advisory_xact_lock`) inside a transaction of its own connection, held open until
 * `release`. Transaction-scoped rather than a session lock because a transaction-mode pooler
 * (PgBouncer `pool_mode=transaction`) hands a session's statements to different server
 * connections: a session lock would be taken on one and released (or not) on another, while a
 * transaction stays on one server connection from BEGIN to COMMIT. A runner that dies loses its
 * connection, Postgres rolls the transaction back and the lock is free: nothing stale to clear.
 */
export async function acquireMigrationLock(source: DataSource, options: MigrationLockOptions): Promise<HeldLock> {
  const held = await LockTransaction.open(source, options.label);
  try {
    const started = Date.now();
    let reported = -Infinity;
    while (!(await held.tryLock('$1', [MIGRATION_LOCK]))) {
      const waited = Date.now() - started;
      const holder = await lockHolder(held.runner);
      if (waited >= options.waitMs) throw new MigrationLockBusy(holder, waited);
      if (options.onWait && waited - reported >= (options.reportEveryMs ?? 30_000)) {
        reported = waited;
        options.onWait(holder, waited);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(RETRY_MS, options.waitMs - waited)));
    }
  } catch (error) {
    await held.release();
    throw error;
  }
  return held;
}

/** The connection that holds the migration lock in this database, if Postgres shows it. */
async function lockHolder(runner: QueryRunner): Promise<LockHolder | null> {
  const rows = (await runner.query(
    `SELECT a.pid, a.application_name, host(a.client_addr) AS client_addr, to_char(a.xact_start AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS since
       FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.granted AND l.classid::bigint = 0 AND l.objid::bigint = $1
        AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    [MIGRATION_LOCK],
  )) as LockHolder[];
  return rows[0] ?? null;
}

/** The label a runner shows other runners: what it is, on which host, which process. */
export function lockLabel(what: string): string {
  return `${what} on ${hostname()} pid ${process.pid}`;
}
