import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { RequestError } from '../../common/errors/request-error';
import { isSameOrigin } from '../../common/http/same-origin';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { SignedInPerson, WebSessions } from '../accounts/web-sessions.service';
import { GrantSummary } from './oauth-pages';
import { MCP_SCOPE } from './oauth-server.constants';
import { OAuthServer } from './oauth-server.service';
import { subjectOf } from './oauth-subject.util';

/** A signed-in person with a current workspace: the only one who can grant a client access. */
export type PersonInWorkspace = SignedInPerson & { tenantId: string };

/** Scopes a person can grant besides `mcp` (the resource's one scope). */
const GRANTABLE_SCOPES = new Set(['openid', 'offline_access', MCP_SCOPE]);

/**
 * What the consent page and the device approval page share: who is signed in (or the way to
 * sign in), the CSRF token of their forms, what a client is asking for, and the grant a person
 * gives: the MCP resource of their current workspace, for the scopes asked that Baton knows.
 */
@Injectable()
export class OAuthGrants {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly server: OAuthServer,
    private readonly sessions: WebSessions,
  ) {}

  /** The signed-in person, or undefined once the browser has been sent to sign in and come back to `back`. */
  async personOrSignIn(req: Request, res: Response, back: string): Promise<SignedInPerson | undefined> {
    const person = await this.sessions.current(req);
    if (!person) res.redirect(303, `/auth/login?next=${encodeURIComponent(back)}`);
    return person;
  }

  /** The CSRF token of one page's forms: bound to the web session and the page, never stored. */
  formToken(person: SignedInPerson, page: string): string {
    return createHmac('sha256', this.config.sessionSecret).update(`baton-oauth-form:${person.sessionId}:${page}`).digest('base64url');
  }

  /** A form must come from Baton's own page: its CSRF token, and its Origin when the browser sends one. */
  checkForm(req: Request, person: SignedInPerson, page: string, token: string): void {
    const expected = Buffer.from(this.formToken(person, page));
    const given = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || !isSameOrigin(req, this.config.baseUrl)) {
      throw RequestError.forbidden("this form did not come from Baton's page (or the page is too old): open it again and answer there");
    }
  }

  async summary(person: PersonInWorkspace, clientId: string, scopes: string[], redirectUri: unknown): Promise<GrantSummary> {
    const client = await this.server.provider.Client.find(clientId);
    const rows: { name: string }[] = await this.source.query('SELECT name FROM control.tenants WHERE id = $1', [person.tenantId]);
    return {
      clientName: client?.clientName ?? clientId,
      redirectHost: typeof redirectUri === 'string' ? (URL.parse(redirectUri)?.host ?? redirectUri) : null,
      scopes: scopes.filter((scope) => GRANTABLE_SCOPES.has(scope)),
      workspaceName: rows[0]?.name ?? person.tenantId,
      email: person.email,
    };
  }

  /**
   * Saves the grant a person gives `clientId`: the MCP resource (scope `mcp`) for their current
   * workspace, plus the other scopes asked that Baton knows. Returns its id and subject.
   */
  async grant(person: PersonInWorkspace, clientId: string, scopes: string[]): Promise<{ grantId: string; subject: string }> {
    const subject = subjectOf(person.tenantId, person.accountId);
    const grant = new this.server.provider.Grant({ accountId: subject, clientId });
    const known = scopes.filter((scope) => GRANTABLE_SCOPES.has(scope));
    if (known.length > 0) grant.addOIDCScope(known.join(' '));
    grant.addResourceScope(this.server.mcpResource, MCP_SCOPE);
    return { grantId: await grant.save(), subject };
  }
}

/** The scopes of a request's `scope` parameter. */
export function scopesOf(value: unknown): string[] {
  return typeof value === 'string' ? value.split(' ').filter(Boolean) : [];
}

export function inWorkspace(person: SignedInPerson): person is PersonInWorkspace {
  return person.tenantId !== null;
}
