import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { extendRequestDeadline } from '../../../libs/tenancy';
import { MemberRole } from '../../common/auth/principal';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantProvisioning } from '../tenants/tenant-provisioning.service';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { EmailQueue } from '../notifications/email-queue.service';
import { welcomeEmail } from '../notifications/templates/welcome.email';

/** How long the sign-in that provisions a person's first workspace may take. */
const PROVISIONING_DEADLINE_MS = 120_000;

/** Who a sign-in provider says signed in. `subject` is the provider's stable id for the person. */
export interface ProviderIdentity {
  provider: 'idpa' | 'idpc' | 'codehost' | 'magic';
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name?: string | null;
}

export interface AccountWorkspace {
  id: string;
  name: string;
  role: MemberRole;
  plan: string;
}

/**
 * Accounts of people who sign in, and the workspaces they belong to. An
 * account is one verified e-mail address: a provider identity seen for the
 * first time joins the account of its address, or starts one. An account with
 * no workspace gets one of its own, provisioned, with the person as its owner.
 */
@Injectable()
export class Accounts {
  /** Workspaces being provisioned for an account, so that two sign-ins at once make one. */
  private readonly provisioning = new Map<string, Promise<string>>();

  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly tenants: TenantProvisioning,
    private readonly mail: EmailQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The account `identity` signs in to (created the first time), and the workspace its session opens in. */
  async signInAs(identity: ProviderIdentity & { email: string }): Promise<{ accountId: string; tenantId: string }> {
    const accountId = await this.source.transaction((m) => this.accountFor(m, identity));
    const tenantId = (await this.lastWorkspace(accountId)) ?? (await this.ownWorkspace(accountId, identity));
    return { accountId, tenantId };
  }

  /**
   * The welcome e-mail of a workspace made at this sign-in (created within the last minute, the
   * person its owner), sent once: `welcomed_at` is set by the one UPDATE that finds it empty, on
   * whichever instance. Someone who arrives with an invitation waiting is greeted by that instead.
   */
  async welcomeIfNew(accountId: string, tenantId: string, email: string): Promise<void> {
    const address = email.trim().toLowerCase();
    const [rows]: [{ name: string }[], number] = await this.source.query(
      `UPDATE control.tenants t SET welcomed_at = now()
        WHERE t.id = $2 AND t.welcomed_at IS NULL AND t.created_at > now() - interval '1 minute'
          AND EXISTS (SELECT 1 FROM control.memberships m WHERE m.tenant_id = t.id AND m.account_id = $1 AND m.role = 'owner')
          AND NOT EXISTS (SELECT 1 FROM control.memberships i WHERE i.email = $3 AND i.status = 'invited')
        RETURNING t.name`,
      [accountId, tenantId, address],
    );
    if (rows[0]) this.mail.enqueue('welcome', welcomeEmail(address, rows[0].name, this.config.baseUrl));
  }

  /** The workspaces the account is an active member of, oldest membership first. */
  async workspaces(accountId: string): Promise<AccountWorkspace[]> {
    return this.source.query(
      `SELECT t.id, t.name, m.role, t.plan FROM control.memberships m JOIN control.tenants t ON t.id = m.tenant_id
        WHERE m.account_id = $1 AND m.status = 'active' AND t.status = 'active' ORDER BY m.joined_at, t.created_at`,
      [accountId],
    );
  }

  private async accountFor(m: EntityManager, identity: ProviderIdentity & { email: string }): Promise<string> {
    const email = identity.email.trim().toLowerCase();
    const now = new Date();
    const known: { account_id: string }[] = await m.query(
      'WITH u AS (UPDATE control.account_identities SET last_used_at = $3, email = $4 WHERE provider = $1 AND subject = $2 RETURNING account_id) SELECT account_id FROM u',
      [identity.provider, identity.subject, now, email],
    );
    if (known[0]) return known[0].account_id;
    // A new identity of a known address joins its account; both addresses are verified by their providers.
    const created: { id: string }[] = await m.query(
      `INSERT INTO control.accounts (id, email, name, email_verified_at, created_at, updated_at) VALUES ($1, $2, $3, $4, $4, $4)
       ON CONFLICT (email) DO UPDATE SET email_verified_at = COALESCE(control.accounts.email_verified_at, EXCLUDED.email_verified_at),
                                         name = COALESCE(control.accounts.name, EXCLUDED.name), updated_at = EXCLUDED.updated_at
       RETURNING id`,
      [randomUUID(), email, identity.name?.trim().slice(0, 200) || null, now],
    );
    const accountId = created[0].id;
    await m.query(
      `INSERT INTO control.account_identities (provider, subject, account_id, email, created_at, last_used_at) VALUES ($1, $2, $3, $4, $5, $5)
       ON CONFLICT (provider, subject) DO NOTHING`,
      [identity.provider, identity.subject, accountId, email, now],
    );
    return accountId;
  }

  /** The workspace of the account's latest web session, if it is still a member of it, else its oldest membership. */
  private async lastWorkspace(accountId: string): Promise<string | undefined> {
    const rows: { tenant_id: string }[] = await this.source.query(
      `SELECT m.tenant_id FROM control.memberships m JOIN control.tenants t ON t.id = m.tenant_id AND t.status = 'active'
         LEFT JOIN LATERAL (SELECT max(s.created_at) AS used FROM control.web_sessions s WHERE s.account_id = m.account_id AND s.tenant_id = m.tenant_id) u ON true
        WHERE m.account_id = $1 AND m.status = 'active'
        ORDER BY u.used DESC NULLS LAST, m.joined_at LIMIT 1`,
      [accountId],
    );
    return rows[0]?.tenant_id;
  }

  private ownWorkspace(accountId: string, identity: ProviderIdentity & { email: string }): Promise<string> {
    // A schema and every tenant migration: more than a request usually may take on a busy server.
    extendRequestDeadline(Date.now() + PROVISIONING_DEADLINE_MS);
    const running = this.provisioning.get(accountId);
    if (running) return running;
    const work = this.provisionFor(accountId, identity).finally(() => this.provisioning.delete(accountId));
    this.provisioning.set(accountId, work);
    return work;
  }

  private async provisionFor(accountId: string, identity: ProviderIdentity & { email: string }): Promise<string> {
    const owner = identity.name?.trim() || identity.email.split('@')[0];
    const tenant_id = await this.tenants.createWorkspace(`${owner}'s workspace`.slice(0, 200));
    const now = new Date();
    await this.source.query(
      // The person who made the workspace may let its assistants write to their own repositories.
      `INSERT INTO control.memberships (id, tenant_id, account_id, email, role, codehost_access, status, created_at, joined_at) VALUES ($1, $2, $3, $4, 'owner', 'write', 'active', $5, $5)`,
      [randomUUID(), tenant_id, accountId, identity.email.trim().toLowerCase(), now],
    );
    await this.source.query('UPDATE control.tenants SET contact_email = COALESCE(contact_email, $2) WHERE id = $1', [tenant_id, identity.email.trim().toLowerCase()]);
    return tenant_id;
  }
}
