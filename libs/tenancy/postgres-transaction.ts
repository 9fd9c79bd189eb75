import type { QueryResult } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { markTransactionOpen, onConnection, pipelined, routeQueries } from './pg-connection';

export type Work<T> = (manager: EntityManager) => Promise<T>;

/** A statement with its values and, if it is to be prepared on each connection, its name there. */
export interface Statement {
  text: string;
  values: unknown[];
  name?: string;
}

/** `BEGIN` with the scope, the statement and `COMMIT`, written together on a pipelined connection; answers the statement's rows. */
export function statementIn(source: DataSource, scope: string, { text, values, name }: Statement, timeout: number): Promise<Record<string, unknown>[]> {
  return onConnection(source, timeout, async ({ connection, query }) => {
    const answers = pipelined(connection, () => [query(`BEGIN; ${scope}`), query(text, values, name), query('COMMIT')]);
    // Every answer is awaited before the connection goes back: none may arrive for its next user.
    const settled = await Promise.allSettled(answers);
    for (const answer of settled) if (answer.status === 'rejected') throw answer.reason;
    return (settled[1] as PromiseFulfilledResult<QueryResult>).value.rows as Record<string, unknown>[];
  });
}

/**
 * `work` in one transaction on a connection of `source`, opened already scoped
 * with its first statement: `pipelined` sends the opening and that statement in
 * one write, `separate` sends the statement after the opening's answer.
 */
export function transactIn<T>(source: DataSource, scope: string, work: Work<T>, opening: 'separate' | 'pipelined', timeout: number): Promise<T> {
  return onConnection(source, timeout, async ({ runner, connection, query, lost }) => {
    // Statements go out one after another, in the order they were issued,
    // even when the work issues several at once.
    let tail: Promise<unknown> = Promise.resolve();
    const send = (text: string, values?: unknown[]): Promise<QueryResult> => {
      const result = tail.then(() => query(text, values));
      tail = result.catch(() => undefined);
      return result;
    };
    // The transaction opens, already scoped, with the first statement: both leave in one
    // write on the connection, switched to pg's pipeline mode (see `PostgresPaths`).
    let open = false;
    routeQueries(runner, (text, values) => {
      if (open) return send(text, values);
      open = true;
      if (opening === 'separate') return Promise.all([send(`BEGIN; ${scope}`), send(text, values)]).then(([, result]) => result);
      // Pipelined: the opening and the statement leave together, without waiting for the
      // opening's answer; a failed opening aborts the transaction, so the statement fails too.
      const both = Promise.all(pipelined(connection, () => [query(`BEGIN; ${scope}`), query(text, values)]));
      tail = both.catch(() => undefined);
      return both.then(([, result]) => result);
    });
    markTransactionOpen(runner);
    try {
      const result = await work(runner.manager);
      if (open) await send('COMMIT');
      return result;
    } catch (error) {
      if (open && !lost()) await send('ROLLBACK').catch(() => undefined);
      throw error;
    }
  });
}

/** A transaction through TypeORM's own query runner API only: START TRANSACTION, the scope, the work, COMMIT. */
export async function transactWithTypeorm<T>(source: DataSource, scope: string, work: Work<T>): Promise<T> {
  const runner = source.createQueryRunner();
  try {
    await runner.startTransaction();
    try {
      await runner.query(scope);
      const result = await work(runner.manager);
      await runner.commitTransaction();
      return result;
    } catch (error) {
      await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    }
  } finally {
    await runner.release();
  }
}
