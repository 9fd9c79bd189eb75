import { DataSource } from 'typeorm';

/** How often the lock's idle transaction says something, so no pooler or idle timeout ends it mid-sweep. */
const HEARTBEAT_MS = 15_000;

/** A held sweep lock; `release` ends it (also safe to call twice). */
export interface HeldSweepLock {
  release(): Promise<void>;
}

/**
 * Tries once to take the advisory lock `key` for one sweep on the shared Postgres: a
 * transaction-scoped lock (`pg_try_advisory_xact_lock`) inside a transaction of its own
 * connection, held open until `release`; null when another instance holds it. Transaction-scoped,
 * as the migration lock is, because a transaction-mode pooler hands a session's statements to
 * whichever server connection is free: a session lock taken on one would be left there when the
 * unlock ran on another, and no instance would sweep again. A holder that dies loses its
 * connection (a pooler drops the server connection of a client gone mid-transaction), Postgres
 * rolls the transaction back and the lock is free.
 */
export async function trySweepLock(source: DataSource, key: number, label: string): Promise<HeldSweepLock | null> {
  const runner = source.createQueryRunner();
  let heartbeat: NodeJS.Timeout | undefined;
  try {
    await runner.connect();
    await runner.startTransaction();
    // The transaction stays idle while the sweep works on other connections: a server-wide
    // idle_in_transaction_session_timeout must not end it (and free the lock) halfway.
    await runner.query(`SELECT set_config('application_name', $1, true), set_config('idle_in_transaction_session_timeout', '0', true)`, [label.slice(0, 63)]);
    const [row] = (await runner.query('SELECT pg_try_advisory_xact_lock($1) AS ok', [key])) as { ok: boolean }[];
    if (!row.ok) {
      await runner.rollbackTransaction();
      await runner.release();
      return null;
    }
    heartbeat = setInterval(() => void runner.query('SELECT 1').catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
  } catch (error) {
    if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
    await runner.release().catch(() => undefined);
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      clearInterval(heartbeat);
      try {
        await runner.rollbackTransaction();
      } catch {
        // The connection went away: so did the lock.
      } finally {
        await runner.release().catch(() => undefined);
      }
    },
  };
}
