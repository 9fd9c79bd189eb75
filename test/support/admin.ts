import { Http } from './http';
import { TestApp } from './test-app';

/** The admin password the admin suites start their apps with (SERVICE_ADMIN_PASSWORD). */
export const ADMIN_PASSWORD = 'admin-pw-Zr5t8Kq2w9';

/** The headers of an admin's browser: the admin password's cookie (signed in by JSON) and Baton's own Origin. */
export async function adminHeaders(testApp: TestApp): Promise<{ cookie: string; origin: string }> {
  const res = await new Http(testApp.url).post('/admin/login', { password: ADMIN_PASSWORD });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${res.text}`);
  const cookie = res.headers
    .getSetCookie()
    .find((c) => c.startsWith('baton_admin='))!
    .split(';')[0];
  return { cookie, origin: testApp.url };
}

/** An admin's client (see adminHeaders). */
export async function adminClient(testApp: TestApp): Promise<Http> {
  return new Http(testApp.url).withHeaders(await adminHeaders(testApp));
}
