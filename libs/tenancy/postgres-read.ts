import type { QueryResult } from 'pg';
import { DataSource, EntityManager } from 'typeorm';
import { routeQueries } from './pg-connection';
import type { ReadLanes } from './read-lanes';
import type { ReadScope } from './scoped-read';
import { currentTenant, TenantContext } from './tenant-context';
import { scopeStatements, storageOwner, whereOf } from './tenant-where';

const TRANSACTION_CONTROL = /^\s*(START|BEGIN|COMMIT|END|ROLLBACK|ABORT|SAVEPOINT|RELEASE|PREPARE\s+TRANSACTION)\b/i;

/**
 * The entity manager every read-only unit of work on `source` is given. Its
 * query runner holds no connection and nothing of any request: each statement
 * is scoped, when it is sent, for the tenant of the request that sends it
 * (`scopeFor`), and travels on `lanes`. So no runner is made and released per
 * read. No transaction stays open: each statement is its own implicit one,
 * scoped (and made read-only) by the statement sent with it. `owner` is the
 * tenant whose own database `source` is, or null for the shared cluster.
 */
export function createReadManager(source: DataSource, lanes: ReadLanes, owner: string | null, scopeFor: (tenant: TenantContext) => ReadScope): EntityManager {
  const runner = source.createQueryRunner();
  routeQueries(runner, (text, values) => {
    if (TRANSACTION_CONTROL.test(text)) return Promise.reject(new Error('read-only tenant work cannot open or end a transaction'));
    const tenant = currentTenant();
    // The tenant chose the source when the work began: a statement sent under another tenant fails loudly.
    if (owner !== storageOwner(tenant)) {
      return Promise.reject(new Error(`a read of tenant ${tenant.tenantId} reached another tenant's storage`));
    }
    const readScope = scopeFor(tenant);
    return lanes.read(readScope, text, values).catch((error: unknown) => {
      // Several statements in one text cannot be prepared: without parameters they are sent
      // as text, scoped the same way; with parameters Postgres's refusal stands, as it would
      // for any pg query.
      if (!isMultiStatementRefusal(error) || (values && values.length > 0)) throw error;
      const scope = scopeStatements(whereOf(tenant), Number(readScope.statementTimeout));
      return lastResult(lanes.query(readScope.searchPath, `${scope}; SET LOCAL transaction_read_only TO on; ${text}`));
    });
  });
  return runner.manager;
}

function isMultiStatementRefusal(error: unknown): boolean {
  return (error as { code?: string }).code === '42601' && /multiple commands/.test((error as Error).message);
}

/** A multi-statement message answers with one result per statement: the caller asked for the last. */
async function lastResult(pending: Promise<QueryResult | QueryResult[]>): Promise<QueryResult> {
  const result = await pending;
  return Array.isArray(result) ? result[result.length - 1] : result;
}
