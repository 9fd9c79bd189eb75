import { EntityManager } from 'typeorm';
import { runWithTenant, TenantDb } from '../../libs/tenancy';
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
