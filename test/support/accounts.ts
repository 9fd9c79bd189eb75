import type { Request, Response } from 'express';
import { createHmac, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SHARED_DATA_SOURCE } from '../../src/database/database.module';
import { Accounts, ProviderIdentity } from '../../src/modules/accounts/accounts.service';
import { sessionCookieName } from '../../src/modules/accounts/session-cookie';
import { WebSessions } from '../../src/modules/accounts/web-sessions.service';
import { ApiTokens } from '../../src/modules/tenants/api-tokens.service';
import { Http } from './http';
import { TestApp } from './test-app';

/** A person signed in to a hosted test app, and a browser-like client that sends their cookie from Baton's own origin. */
export interface SignedInClient {
  accountId: string;
  /** The workspace the session opened in. */
  tenantId: string;
  /** `name=value` for a Cookie header. */
  cookie: string;
  http: Http;
}

/**
 * Signs `email` in as a sign-in flow's last step would (account found or made,
 * a workspace provisioned the first time, a new web session), without a
 * provider in between: for suites about what a signed-in person can do. The
 * flows themselves are exercised end to end by their own suites.
 */
export async function signIn(testApp: TestApp, email: string, identity: Partial<ProviderIdentity> = {}): Promise<SignedInClient> {
  const { accountId, tenantId } = await testApp.app.get(Accounts).signInAs({ provider: 'magic', subject: email, emailVerified: true, ...identity, email });
  let secret = '';
  const res = { cookie: (_name: string, value: string) => void (secret = value) } as unknown as Response;
  const req = { headers: { 'user-agent': 'baton-test' }, signedCookies: {} } as unknown as Request;
  await testApp.app.get(WebSessions).start(req, res, accountId, tenantId, identity.provider ?? 'magic');
  const cookie = `${sessionCookieName(testApp.config)}=${encodeURIComponent(signedCookieValue(secret, testApp.config.sessionSecret))}`;
  return { accountId, tenantId, cookie, http: new Http(testApp.url).withHeaders({ cookie, origin: testApp.url }) };
}

/** A cookie value signed the way cookie-parser checks it (`s:<value>.<HMAC-SHA256, base64, unpadded>`). */
export function signedCookieValue(value: string, secret: string): string {
  return `s:${value}.${createHmac('sha256', secret).update(value).digest('base64').replace(/=+$/, '')}`;
}

/** A fresh address for one test. */
export function freshEmail(label = 'person'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

/**
 * Sets a person's codehost_access (the most their code-host connection may do in the workspace)
 * in the workspace they opened on their first sign-in, where they are the one member and owner.
 */
export async function setCodehostAccess(person: SignedInClient, access: 'none' | 'read' | 'write'): Promise<void> {
  const members = await person.http.get('/workspace/members');
  if (members.status !== 200 || members.body.length !== 1) throw new Error(`not a workspace of one: ${members.status} ${members.text}`);
  const own = members.body[0] as { id: string };
  const res = await person.http.patch(`/workspace/members/${own.id}`, { codehost_access: access });
  if (res.status !== 200) throw new Error(`codehost_access not set: ${res.status} ${res.text}`);
}

/** A second person of a workspace, acting through an API token they made in it. */
export interface WorkspaceMember {
  accountId: string;
  email: string;
  membershipId: string;
  /** An API token of the workspace made by this person (their role and caps apply to it). */
  token: string;
}

/**
 * Makes a fresh person an active member of `tenantId` with `role` (and `codehost_access`), as an
 * accepted invitation would, and gives them an API token there: for suites about what one member
 * may do in another's workspace. Invitations themselves are exercised by the members suite.
 */
export async function addMember(
  testApp: TestApp,
  tenantId: string,
  role: 'owner' | 'admin' | 'member',
  options: { codehostAccess?: 'none' | 'read' | 'write'; label?: string } = {},
): Promise<WorkspaceMember> {
  const email = freshEmail(options.label ?? role);
  const { accountId } = await signIn(testApp, email);
  const membershipId = randomUUID();
  await (testApp.app.get(SHARED_DATA_SOURCE) as DataSource).query(
    `INSERT INTO control.memberships (id, tenant_id, account_id, email, role, codehost_access, status, created_at, joined_at)
     VALUES ($1, $2, $3, $4, $5, $6, 'active', now(), now())`,
    [membershipId, tenantId, accountId, email.toLowerCase(), role, options.codehostAccess ?? 'read'],
  );
  const token = await testApp.app.get(ApiTokens).createToken(tenantId, `${role} laptop`, { createdBy: accountId });
  return { accountId, email: email.toLowerCase(), membershipId, token };
}
