import { EntityManager } from 'typeorm';
import { currentTenant, runWithTenant, TenantDb } from '../../libs/tenancy';
import { TenantResolver } from '../../src/modules/tenants/tenant-resolver.service';
import { TestApp } from './test-app';

/**
 * Runs `work` against the storage of the tenant that `token` belongs to (the
 * local tenant when self-hosted), through the app's own TenantDb: for setting
 * up states a client cannot reach quickly, such as an expired lock, or to keep
 * a tenant's connections busy. `as`: one transaction, or read-only work.
 */
export async function inTenantDb<T>(testApp: TestApp, token: string | undefined, work: (m: EntityManager) => Promise<T>, as: 'transaction' | 'read' = 'transaction'): Promise<T> {
  const tenant = await testApp.app.get(TenantResolver).resolve(token ? `Bearer ${token}` : undefined);
  const db = testApp.app.get(TenantDb);
  return runWithTenant(tenant, () => (as === 'read' ? db.read(work) : db.transaction(work)));
}

/** The tenant of each write transaction the app's TenantDb opened while `work` ran, in order. */
export async function transactionsDuring(testApp: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const db = testApp.app.get(TenantDb);
  const transaction = db.transaction;
  const opened: string[] = [];
  db.transaction = function (this: TenantDb, ...args: Parameters<TenantDb['transaction']>) {
    opened.push(currentTenant().tenantId);
    return transaction.apply(this, args);
  } as TenantDb['transaction'];
  try {
    await work();
  } finally {
    db.transaction = transaction;
  }
  return opened;
}
