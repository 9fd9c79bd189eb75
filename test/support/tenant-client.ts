import { Http } from './http';
import { provisionTenant, TestApp } from './test-app';

/** A tenant of a hosted test app, and an HTTP client that holds its token. */
export interface TenantClient {
  tenant_id: string;
  token: string;
  http: Http;
}

/**
 * Provisions a tenant through the running app's control plane and returns it
 * with a client of its own: how a suite sets up the second tenant that proves
 * one tenant cannot see another's data.
 */
export async function tenantClient(testApp: TestApp, name: string): Promise<TenantClient> {
  const { tenant_id, token } = await provisionTenant(testApp, name);
  return { tenant_id, token, http: new Http(testApp.url, token) };
}
