import type { ClientBase, QueryConfig, QueryResult } from 'pg';

/**
 * One query on `client` that fails with 'Query read timeout' after `timeoutMs` without an answer
 * (0: waits as long as it takes). pg reads `query_timeout` from the query's config as it does from
 * the client's (not in its type declarations; `test/library-contracts.spec.ts`).
 */
export function timedQuery(client: ClientBase, text: string, values: unknown[] | undefined, timeoutMs: number): Promise<QueryResult> {
  const config = { text, values, query_timeout: timeoutMs || undefined };
  return client.query(config as QueryConfig);
}
