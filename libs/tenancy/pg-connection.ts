import type { Pool, PoolClient, QueryResult } from 'pg';
import { DataSource, QueryRunner } from 'typeorm';
import type { ReadResult } from './scoped-read';
import { timedQuery } from './timed-query';

/** A pooled pg client, switched to pipelining with this flag (`test/library-contracts.spec.ts`). */
export type Pipelinable = PoolClient & { pipeline: boolean };

/** Where every statement TypeORM sends through a routed query runner goes. */
export type Send = (text: string, values?: unknown[]) => Promise<QueryResult | ReadResult>;

/** One connection held for a unit of work: its query runner, the client, a bounded query, and whether it was lost. */
export interface HeldConnection {
  runner: QueryRunner;
  connection: Pipelinable;
  /** With `name`: prepared under that name on the connection the first time (`timedQuery`). */
  query: (text: string, values?: unknown[], name?: string) => Promise<QueryResult>;
  lost: () => boolean;
}

/**
 * Runs `use` on a connection of `source`'s pool, every query bounded by the client's `timeout`.
 * A statement the client gave up waiting for may still be running, or the connection may be
 * gone: either way the connection is dropped afterwards, not returned to the pool.
 */
export async function onConnection<T>(source: DataSource, timeout: number, use: (held: HeldConnection) => Promise<T>): Promise<T> {
  const runner = source.createQueryRunner();
  let connection: Pipelinable | undefined;
  let broken: Error | undefined;
  try {
    connection = (await runner.connect()) as Pipelinable;
    const client = connection;
    const query = (text: string, values?: unknown[], name?: string): Promise<QueryResult> =>
      timedQuery(client, text, values, timeout, name).catch((error: Error) => {
        if (isConnectionLost(error)) broken ??= error;
        throw error;
      });
    return await use({ runner, connection: client, query, lost: () => broken !== undefined });
  } finally {
    if (connection) connection.pipeline = false;
    await releaseRunner(runner, broken);
  }
}

/** Sends the queries `send` issues in one write, on `connection` switched to pg's pipeline mode. */
export function pipelined<T>(connection: Pipelinable, send: () => Promise<T>[]): Promise<T>[] {
  connection.pipeline = true;
  const socket = connection.connection.stream;
  socket.cork();
  const answers = send();
  socket.uncork();
  return answers;
}

/** The pg pool of a Postgres data source (`test/library-contracts.spec.ts`). */
export function poolOf(source: DataSource): Pool {
  return (source.driver as unknown as { master: Pool }).master;
}

/**
 * Errors after which a connection cannot be trusted with another transaction: the client gave up
 * waiting for an answer (`query_timeout`), or the connection itself failed or was closed.
 */
function isConnectionLost(error: Error): boolean {
  const code = (error as { code?: string }).code ?? '';
  return (
    error.message === 'Query read timeout' ||
    /^Connection terminated|not queryable|Client was closed/.test(error.message) ||
    code.startsWith('08') ||
    ['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED'].includes(code)
  );
}

/**
 * Gives the runner's connection back to the pool, or, after `broken`, has the pool drop it. TypeORM
 * passes an error to pg's release only from its private `releasePostgresConnection`
 * (`test/library-contracts.spec.ts`); its public `release()` always gives the connection back.
 */
function releaseRunner(runner: QueryRunner, broken: Error | undefined): Promise<void> {
  if (!broken) return runner.release();
  return (runner as unknown as { releasePostgresConnection(error?: Error): Promise<void> }).releasePostgresConnection(broken);
}

/**
 * Makes every statement TypeORM sends through `runner` (entity manager calls,
 * query builders, raw queries) go through `send`. TypeORM reaches the driver
 * connection only through `connect()`, so that is where the scoped one is given.
 */
export function routeQueries(runner: QueryRunner, send: Send): void {
  const scoped = {
    query(text: unknown, values?: unknown[]) {
      if (typeof text !== 'string') return Promise.reject(new Error('streamed queries are not available inside tenant work'));
      return send(text, values);
    },
  };
  (runner as unknown as { connect: () => Promise<unknown> }).connect = () => Promise.resolve(scoped);
}

/**
 * Tells TypeORM a transaction is open on `runner`, so that `save()` and
 * friends do not open their own and nested `transaction()` calls use savepoints;
 * the BEGIN itself travels with the first statement.
 */
export function markTransactionOpen(runner: QueryRunner): void {
  const state = runner as unknown as { isTransactionActive: boolean; transactionDepth: number };
  state.isTransactionActive = true;
  state.transactionDepth = 1;
}
