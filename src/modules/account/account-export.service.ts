import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { DataSource } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { AccountRequests } from '../accounts/account-requests.service';
import { TenantDirectory } from '../tenants/tenant-directory.service';
import { readWorkspaceData, WorkspaceData } from './workspace-export';

type Row = Record<string, unknown>;

export interface AccountExport {
  format: 'baton-account-export';
  version: 1;
  exported_at: string;
  account: Row;
  identities: Row[];
  memberships: Row[];
  web_sessions: Row[];
  api_tokens: Row[];
  codehost_connections: Row[];
  /** Each workspace the account owns, with its project data. */
  workspaces: (Row & { data: WorkspaceData })[];
}

/**
 * GET /export/my-data: everything Baton holds about the signed-in account, in
 * one JSON document. No secret is in it: no session secret or its hash, no
 * token value or hash, no invitation token, no sealed connection string or
 * code-host token.
 */
@Injectable()
export class AccountExportService {
  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly requests: AccountRequests,
    private readonly directory: TenantDirectory,
    private readonly db: TenantDb,
  ) {}

  async export(req: Request): Promise<AccountExport> {
    const { accountId } = await this.requests.person(req);
    const q = (sql: string): Promise<Row[]> => this.source.query(sql, [accountId]);
    const [account] = await q('SELECT id, email, name, email_verified_at, created_at, updated_at FROM control.accounts WHERE id = $1');
    const owned = await q(
      `SELECT t.id, t.name, t.plan, t.created_at FROM control.memberships m JOIN control.tenants t ON t.id = m.tenant_id
        WHERE m.account_id = $1 AND m.role = 'owner' AND m.status = 'active' AND t.status = 'active' ORDER BY t.created_at`,
    );
    const workspaces = [];
    for (const workspace of owned) {
      const data = await this.directory.asTenant(workspace.id as string, () => this.db.read(readWorkspaceData));
      workspaces.push({ ...workspace, data });
    }
    return {
      format: 'baton-account-export',
      version: 1,
      exported_at: new Date().toISOString(),
      account,
      identities: await q('SELECT provider, subject, email, created_at, last_used_at FROM control.account_identities WHERE account_id = $1 ORDER BY created_at'),
      memberships: await q(
        `SELECT m.tenant_id AS workspace_id, t.name AS workspace_name, m.role, m.codehost_access, m.status, m.joined_at
           FROM control.memberships m JOIN control.tenants t ON t.id = m.tenant_id WHERE m.account_id = $1 ORDER BY m.joined_at`,
      ),
      web_sessions: await q(
        'SELECT id, provider, user_agent, created_at, last_seen_at, expires_at, revoked_at FROM control.web_sessions WHERE account_id = $1 ORDER BY created_at',
      ),
      api_tokens: await q('SELECT id, tenant_id AS workspace_id, name, token_prefix, created_at, revoked_at FROM control.api_tokens WHERE created_by = $1 ORDER BY created_at'),
      codehost_connections: await q('SELECT account_login, scopes, created_at, updated_at FROM control.codehost_connections WHERE account_id = $1 ORDER BY created_at'),
      workspaces,
    };
  }
}
