import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { RequestError } from '../../common/errors/request-error';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantResolver } from '../tenants/tenant-resolver.service';
import { Accounts, AccountWorkspace } from './accounts.service';
import { SignedInPerson, WebSessions } from './web-sessions.service';

export interface MeView {
  plan?: string;
  account?: { id: string; email: string; name: string | null } | null;
  workspace?: { id: string; name: string; role: string | null; plan: string } | null;
}

/** One of the signed-in person's workspaces, as `/me/workspaces` lists it. */
export type MyWorkspace = AccountWorkspace & { current: boolean };

/** What `/me` and the account routes need: the signed-in person (or the token's workspace) of a request. */
@Injectable()
export class AccountRequests {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly sessions: WebSessions,
    private readonly resolver: TenantResolver,
    private readonly accounts: Accounts,
  ) {}

  /** The signed-in person; 401 when the request carries no live web session, 404 self-hosted. */
  async person(req: Request): Promise<SignedInPerson> {
    if (!this.config.isHosted) throw RequestError.notFound('accounts and signing in are only available in hosted mode');
    const person = await this.sessions.current(req);
    if (!person) throw RequestError.unauthorized('sign in first: this needs a signed-in person (the web-session cookie)');
    return person;
  }

  /** `/me`: `{}` self-hosted or anonymous; else the plan, the account (sessions) and the current workspace. */
  async me(req: Request): Promise<MeView> {
    if (!this.config.isHosted) return {};
    if (req.headers.authorization) {
      const tenant = await this.resolver.resolve(req.headers.authorization, req.ip);
      const workspace = await this.workspace(tenant.tenantId, null);
      return { plan: workspace?.plan, account: null, workspace };
    }
    const person = await this.sessions.current(req);
    if (!person) return {};
    const workspace = person.tenantId ? await this.workspace(person.tenantId, person.role) : null;
    return { plan: workspace?.plan, account: { id: person.accountId, email: person.email, name: person.name }, workspace };
  }

  /** The signed-in person's workspaces, the current one marked. */
  async workspaces(req: Request): Promise<MyWorkspace[]> {
    if (!this.config.isHosted) return [];
    const person = await this.person(req);
    const list = await this.accounts.workspaces(person.accountId);
    return list.map((w) => ({ ...w, current: w.id === person.tenantId }));
  }

  async switchWorkspace(req: Request, workspaceId: string) {
    const person = await this.person(req);
    if (!(await this.sessions.switchWorkspace(person, workspaceId))) {
      throw RequestError.notFound(`workspace ${workspaceId} not found among the workspaces you belong to`);
    }
    return (await this.workspaces(req)).find((w) => w.id === workspaceId);
  }

  /** Signs out one of the person's web sessions (this one included); 404 when it has no such live session. */
  async revokeSession(req: Request, sessionId: string): Promise<void> {
    const person = await this.person(req);
    if (!(await this.sessions.revoke(person.accountId, sessionId))) throw RequestError.notFound(`web session ${sessionId} not found among your live sessions`);
  }

  private async workspace(tenantId: string, role: string | null) {
    const rows: { id: string; name: string; plan: string }[] = await this.source.query('SELECT id, name, plan FROM control.tenants WHERE id = $1', [tenantId]);
    return rows[0] ? { ...rows[0], role } : null;
  }
}
