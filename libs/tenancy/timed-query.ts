import type { ClientBase, QueryConfig, QueryResult } from 'pg';

/**
 * One query on `client` that fails with 'Query read timeout' after `timeoutMs` without an answer
 * (0: waits as long as it takes). pg reads `query_timeout` from the query's config as it does from the client's
 * (not in its type declarations; `test/library-contracts.spec.ts`). With `name`, the statement is prepared under
 * that name the first time it runs on the connection, and only bound and run after that.
 */
export function timedQuery(client: ClientBase, text: string, values: unknown[] | undefined, timeoutMs: number, name?: string): Promise<QueryResult> {
  const config = { name, text, values, query_timeout: timeoutMs || undefined };
  return client.query(config as QueryConfig);
}
