import { AsyncLocalStorage } from 'node:async_hooks';

/** Where one tenant's data lives. */
export interface TenantContext {
  tenantId: string;
  /** Postgres schema holding the tenant's tables (null for the SQLite file). */
  schema: string | null;
  /** Role taken for each transaction; only hosted tenants on the shared cluster have one. */
  role: string | null;
  /** Encrypted connection string of the tenant's own database (BYODB), if connected. */
  byodbUrlEncrypted: string | null;
}

const storage = new AsyncLocalStorage<TenantContext>();

/** Runs `work` with `tenant` as the current tenant (requests, background jobs, pub/sub handlers). */
export function runWithTenant<T>(tenant: TenantContext, work: () => T): T {
  return storage.run(tenant, work);
}

/** The tenant of the running request or job. Throws when none was set: a bug, never a default. */
export function currentTenant(): TenantContext {
  const tenant = storage.getStore();
  if (!tenant) throw new Error('No tenant in context: wrap the work in runWithTenant or route it through the tenant interceptor');
  return tenant;
}

/** The current tenant, or undefined outside any tenant's work (public routes). */
export function maybeCurrentTenant(): TenantContext | undefined {
  return storage.getStore();
}
