import type { ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AppConfig } from '../../config/app-config';
import { RequestError } from '../errors/request-error';
import type { AdminIdentity, AdminStanding } from './admin-identity.service';
import { AdminOnlyGuard } from './admin-only.guard';

const config = { baseUrl: 'https://baton.example' } as AppConfig;

function guardFor(standing: AdminStanding) {
  return new AdminOnlyGuard({ standing: () => Promise.resolve(standing) } as unknown as AdminIdentity, config);
}

function contextOf(method: string, headers: Record<string, string> = {}): ExecutionContext {
  const request = { method, headers: { host: 'baton.example', ...headers }, protocol: 'https' } as unknown as Request;
  return { switchToHttp: () => ({ getRequest: () => request }) } as unknown as ExecutionContext;
}

async function statusOf(guard: AdminOnlyGuard, context: ExecutionContext): Promise<number> {
  try {
    await guard.canActivate(context);
    return 200;
  } catch (error) {
    return (error as RequestError).httpStatus;
  }
}

describe('AdminOnlyGuard', () => {
  const admin = guardFor({ kind: 'admin', via: 'password' });

  test('no one signed in is 401, a signed-in person who is not an admin 403, an admin passes', async () => {
    expect(await statusOf(guardFor({ kind: 'anonymous' }), contextOf('GET'))).toBe(401);
    expect(await statusOf(guardFor({ kind: 'signed-in', email: 'a@example.test' }), contextOf('GET'))).toBe(403);
    expect(await statusOf(admin, contextOf('GET'))).toBe(200);
  });

  test("an admin's change must come from Baton's own origin", async () => {
    expect(await statusOf(admin, contextOf('POST', { origin: 'https://baton.example' }))).toBe(200);
    expect(await statusOf(admin, contextOf('POST', { origin: 'https://evil.example' }))).toBe(403);
    expect(await statusOf(admin, contextOf('DELETE'))).toBe(403);
    expect(await statusOf(admin, contextOf('POST', { 'sec-fetch-site': 'same-origin' }))).toBe(200);
  });
});
