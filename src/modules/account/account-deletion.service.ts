import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { DataSource, EntityManager } from 'typeorm';
import { RequestError } from '../../common/errors/request-error';
import { isSameOrigin } from '../../common/http/same-origin';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { AccountRequests } from '../accounts/account-requests.service';
import { WebSessions } from '../accounts/web-sessions.service';
import { TenantProvisioning } from '../tenants/tenant-provisioning.service';
import { TenantResolver } from '../tenants/tenant-resolver.service';

export interface AccountDeleted {
  detail: string;
  /** The workspaces the account owned alone, removed with their data. */
  deleted_workspaces: string[];
}

interface Removal {
  soleOwned: string[];
  /** Everyone who belonged to a removed workspace: their cached sessions point at it. */
  affectedAccounts: string[];
  tokenHashes: string[];
}

/**
 * POST /account/delete: the account goes, with its identities, web sessions,
 * memberships and the API tokens it made, and every workspace it owns alone
 * goes with all its data (schema and role dropped). A workspace it owns with
 * another owner stays, as does everything of every other account.
 */
@Injectable()
export class AccountDeletionService {
  private readonly logger = new Logger('account');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly requests: AccountRequests,
    private readonly sessions: WebSessions,
    private readonly resolver: TenantResolver,
    private readonly provisioning: TenantProvisioning,
  ) {}

  async delete(req: Request, res: Response): Promise<AccountDeleted> {
    const person = await this.requests.person(req);
    if (!isSameOrigin(req, this.config.baseUrl)) {
      throw RequestError.forbidden("deleting an account must be asked from Baton's own pages (the request's Origin is another site, or missing)");
    }
    const removal = await this.source.transaction((m) => this.removeAccount(m, person.accountId, person.email));
    for (const hash of removal.tokenHashes) this.resolver.forgetToken(hash);
    for (const accountId of [person.accountId, ...removal.affectedAccounts]) this.sessions.forgetAccount(accountId);
    for (const tenantId of removal.soleOwned) await this.dropWorkspace(tenantId);
    await this.sessions.signOut(req, res);
    return { detail: 'account deleted', deleted_workspaces: removal.soleOwned };
  }

  /**
   * One transaction: the owned workspaces' rows are locked first (in id order),
   * so two co-owners deleting their accounts at once cannot each leave the
   * workspace to the other and orphan it. Workspaces owned alone are marked
   * `deleting` (no credential reaches them from then on) and dropped after
   * the commit, by TenantProvisioning, which needs the row unlocked.
   */
  private async removeAccount(m: EntityManager, accountId: string, email: string): Promise<Removal> {
    const owned: { tenant_id: string }[] = await m.query(
      `SELECT t.id AS tenant_id FROM control.tenants t JOIN control.memberships o ON o.tenant_id = t.id
        WHERE o.account_id = $1 AND o.role = 'owner' AND o.status = 'active' ORDER BY t.id FOR NO KEY UPDATE OF t`,
      [accountId],
    );
    const soleRows: { tenant_id: string }[] = await m.query(
      `SELECT o.tenant_id FROM control.memberships o WHERE o.account_id = $1 AND o.role = 'owner' AND o.status = 'active'
          AND o.tenant_id = ANY($2::uuid[])
          AND NOT EXISTS (SELECT 1 FROM control.memberships x WHERE x.tenant_id = o.tenant_id AND x.role = 'owner' AND x.status = 'active' AND x.account_id <> $1)`,
      [accountId, owned.map((r) => r.tenant_id)],
    );
    const soleOwned = soleRows.map((r) => r.tenant_id);
    const affected: { account_id: string }[] = await m.query(
      'SELECT DISTINCT account_id FROM control.memberships WHERE tenant_id = ANY($1::uuid[]) AND account_id IS NOT NULL AND account_id <> $2',
      [soleOwned, accountId],
    );
    await m.query("UPDATE control.tenants SET status = 'deleting', updated_at = now() WHERE id = ANY($1::uuid[])", [soleOwned]);
    // A workspace that stays should not keep writing to the address of an account that is gone.
    await m.query(
      `UPDATE control.tenants t SET contact_email = (
          SELECT a.email FROM control.memberships o JOIN control.accounts a ON a.id = o.account_id
           WHERE o.tenant_id = t.id AND o.role = 'owner' AND o.status = 'active' AND o.account_id <> $1 ORDER BY o.joined_at LIMIT 1)
        WHERE t.contact_email = $2 AND t.status = 'active'`,
      [accountId, email],
    );
    const tokens: { token_hash: string }[] = await m.query('WITH d AS (DELETE FROM control.api_tokens WHERE created_by = $1 RETURNING token_hash) SELECT token_hash FROM d', [
      accountId,
    ]);
    // Identities, memberships and web sessions go with the account (ON DELETE CASCADE).
    await m.query('DELETE FROM control.accounts WHERE id = $1', [accountId]);
    return { soleOwned, affectedAccounts: affected.map((r) => r.account_id), tokenHashes: tokens.map((t) => t.token_hash) };
  }

  private async dropWorkspace(tenantId: string): Promise<void> {
    try {
      await this.provisioning.deprovision(tenantId);
    } catch (error) {
      // The account is gone already; the workspace stays marked `deleting`, reached by no one, for the operator to remove.
      this.logger.error({ msg: 'workspace of a deleted account could not be removed', tenant_id: tenantId, error_class: (error as Error).name });
    }
  }
}
