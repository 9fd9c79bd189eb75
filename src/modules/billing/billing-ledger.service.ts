import { Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Plan, planNamed } from '../../common/plans';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantPlans } from '../push/tenant-plans.service';
import { BillingMails } from './billing-mails.service';

/** A change one event asks for, wherever it came from (the payment provider, the code-host marketplace). */
export interface LedgerChange {
  plan: Plan;
  status: string;
  createdAt: Date;
  customerId?: string | null;
  subscriptionId?: string | null;
  marketplaceAccount?: string | null;
}

/** How Baton finds the workspace of an event. */
export interface WorkspaceKey {
  workspaceId?: string | null;
  customerId?: string | null;
  subscriptionId?: string | null;
  marketplaceAccount?: string | null;
}

export type LedgerOutcome = 'duplicate' | 'ignored' | 'unknown_workspace' | 'stale' | 'applied';

type Applied = { outcome: Exclude<LedgerOutcome, 'applied'> } | { outcome: 'applied'; tenant: TenantRow; planBefore: Plan };

interface TenantRow {
  id: string;
  plan: string;
  contact_email: string | null;
  billing_state_at: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Applies billing events to workspaces, each event once: its id is stored in
 * the same transaction that applies it, so a redelivery (on this instance or
 * another) finds it and changes nothing. The workspace row is locked while an
 * event is applied and keeps the creation time of the event that set its
 * state; an older event only fills in ids it lacked.
 */
@Injectable()
export class BillingLedger {
  private readonly logger = new Logger('billing');

  constructor(
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly plans: TenantPlans,
    private readonly mails: BillingMails,
  ) {}

  async record(source: string, eventId: string, kind: string, key: WorkspaceKey | null, change: LedgerChange | null): Promise<LedgerOutcome> {
    const result = await this.source.transaction(async (m): Promise<Applied> => {
      const inserted: unknown[] = await m.query(
        `INSERT INTO control.billing_events (source, event_id, kind, outcome, received_at) VALUES ($1, $2, $3, 'pending', now())
         ON CONFLICT (source, event_id) DO NOTHING RETURNING event_id`,
        [source, eventId, kind],
      );
      if (inserted.length === 0) return { outcome: 'duplicate' as const };
      const applied: Applied = key && change ? await this.apply(m, key, change) : { outcome: 'ignored' };
      await m.query('UPDATE control.billing_events SET outcome = $3, tenant_id = $4 WHERE source = $1 AND event_id = $2', [
        source,
        eventId,
        applied.outcome,
        applied.outcome === 'applied' ? applied.tenant.id : null,
      ]);
      return applied;
    });
    if (result.outcome === 'applied') this.afterChange(result.tenant, result.planBefore, change!.plan);
    this.logger.log({ msg: 'billing event', source, kind, outcome: result.outcome });
    return result.outcome;
  }

  private async apply(m: EntityManager, key: WorkspaceKey, change: LedgerChange): Promise<Applied> {
    const tenant = await this.lockWorkspace(m, key);
    if (!tenant) return { outcome: 'unknown_workspace' };
    const stale = tenant.billing_state_at !== null && new Date(tenant.billing_state_at).getTime() > change.createdAt.getTime();
    const ids = [change.customerId ?? null, change.subscriptionId ?? null, change.marketplaceAccount ?? null];
    if (stale) {
      await m.query(
        `UPDATE control.tenants SET billing_customer_id = COALESCE(billing_customer_id, $2), billing_subscription_id = COALESCE(billing_subscription_id, $3),
           marketplace_account = COALESCE(marketplace_account, $4) WHERE id = $1`,
        [tenant.id, ...ids],
      );
      return { outcome: 'stale' };
    }
    await m.query(
      `UPDATE control.tenants SET plan = $5, billing_status = $6, billing_state_at = $7, updated_at = now(),
         billing_customer_id = COALESCE($2, billing_customer_id), billing_subscription_id = COALESCE($3, billing_subscription_id),
         marketplace_account = COALESCE($4, marketplace_account) WHERE id = $1`,
      [tenant.id, ...ids, change.plan, change.status, change.createdAt],
    );
    return { outcome: 'applied', tenant, planBefore: planNamed(tenant.plan) };
  }

  /** The event's workspace, locked: by its id, else by the subscription, the customer or the marketplace account it carries. */
  private async lockWorkspace(m: EntityManager, key: WorkspaceKey): Promise<TenantRow | undefined> {
    const select = 'SELECT id, plan, contact_email, billing_state_at FROM control.tenants';
    const lookups: [string, string | null | undefined][] = [
      [`${select} WHERE id = $1 FOR UPDATE`, key.workspaceId && UUID.test(key.workspaceId) ? key.workspaceId : null],
      [`${select} WHERE billing_subscription_id = $1 ORDER BY created_at LIMIT 1 FOR UPDATE`, key.subscriptionId],
      [`${select} WHERE billing_customer_id = $1 ORDER BY created_at LIMIT 1 FOR UPDATE`, key.customerId],
      [`${select} WHERE marketplace_account = $1 ORDER BY created_at LIMIT 1 FOR UPDATE`, key.marketplaceAccount],
      [
        // A first marketplace purchase: the oldest workspace the code-host account's person owns.
        `${select} WHERE id = (SELECT ms.tenant_id FROM control.codehost_connections c JOIN control.memberships ms ON ms.account_id = c.account_id
           JOIN control.tenants t ON t.id = ms.tenant_id WHERE lower(c.account_login) = lower($1) AND ms.role = 'owner' AND ms.status = 'active'
           ORDER BY t.created_at LIMIT 1) FOR UPDATE`,
        key.marketplaceAccount,
      ],
    ];
    for (const [sql, value] of lookups) {
      if (!value) continue;
      const rows: TenantRow[] = await m.query(sql, [value]);
      if (rows[0]) return rows[0];
    }
    return undefined;
  }

  private afterChange(tenant: TenantRow, before: Plan, after: Plan): void {
    this.plans.forget(tenant.id);
    if (before !== after && tenant.contact_email) this.mails.planChanged(tenant.contact_email, after);
  }
}
