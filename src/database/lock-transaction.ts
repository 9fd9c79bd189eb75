import { DataSource, QueryRunner } from 'typeorm';

/** How often a held lock's idle transaction says something, so no pooler or idle timeout ends it. */
const HEARTBEAT_MS = 15_000;

/** A lock held for a run (a migration, a sweep, a tenant move); `release` ends it, safe to call twice. */
export interface HeldLock {
  release(): Promise<void>;
}

/**
 * A transaction of its own pooled connection that holds transaction-scoped advisory locks
 * (`pg_try_advisory_xact_lock`) until `release`: the cross-instance locks of Baton's runs.
 * Transaction-scoped rather than session locks because a transaction-mode pooler (PgBouncer
 * `pool_mode=transaction`) hands a session's statements to whichever server connection is free,
 * so a session lock taken on one would be left there when the unlock ran on another, while a
 * transaction stays on one server connection from BEGIN to its end. A holder that dies loses its
 * connection, Postgres rolls the transaction back and the lock is free: nothing stale to clear.
 * While held, the transaction is idle: a heartbeat keeps idle timeouts from ending it halfway.
 */
export class LockTransaction implements HeldLock {
  private heartbeat: NodeJS.Timeout | undefined;
  private released = false;

  private constructor(readonly runner: QueryRunner) {}

  /** Opens the transaction, named `label` for other runners that find the lock taken (`application_name`). */
  static async open(source: DataSource, label: string): Promise<LockTransaction> {
    const runner = source.createQueryRunner();
    const held = new LockTransaction(runner);
    try {
      await runner.connect();
      await runner.startTransaction();
      // A server-wide idle_in_transaction_session_timeout must not end it (and free the lock) mid-run.
      await runner.query(`SELECT set_config('application_name', $1, true), set_config('idle_in_transaction_session_timeout', '0', true)`, [label.slice(0, 63)]);
    } catch (error) {
      await held.release();
      throw error;
    }
    return held;
  }

  /** Tries once for the advisory lock of `keys` (the SQL arguments of pg_try_advisory_xact_lock, with `params`). */
  async tryLock(keys: string, params: unknown[] = []): Promise<boolean> {
    const [row] = (await this.runner.query(`SELECT pg_try_advisory_xact_lock(${keys}) AS ok`, params)) as { ok: boolean }[];
    if (row.ok && !this.heartbeat) {
      this.heartbeat = setInterval(() => void this.runner.query('SELECT 1').catch(() => undefined), HEARTBEAT_MS);
      this.heartbeat.unref();
    }
    return row.ok;
  }

  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    clearInterval(this.heartbeat);
    try {
      if (this.runner.isTransactionActive) await this.runner.rollbackTransaction();
    } catch {
      // The connection went away: so did the lock.
    } finally {
      await this.runner.release().catch(() => undefined);
    }
  }
}

/** Takes the advisory lock of `keys` without waiting: held until `release`, or null when another holds it. */
export async function tryLockFor(source: DataSource, keys: string, params: unknown[], label: string): Promise<HeldLock | null> {
  const held = await LockTransaction.open(source, label);
  try {
    if (await held.tryLock(keys, params)) return held;
  } catch (error) {
    await held.release();
    throw error;
  }
  await held.release();
  return null;
}
