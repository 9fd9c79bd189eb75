import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Principal } from '../../common/auth/principal';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { BillingError } from './billing.errors';
import { BillingProvider } from './billing-provider';

interface WorkspaceBilling {
  id: string;
  contact_email: string | null;
  billing_customer_id: string | null;
}

/**
 * The ways a signed-in owner or admin reaches the payment provider: checkout
 * (a checkout session for BILLING_PRICE_ID with BILLING_SECRET_KEY, else the
 * payment link), and the customer portal of the workspace's customer. Both
 * carry the workspace id, which is how the webhooks find the workspace again.
 */
@Injectable()
export class BillingService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly provider: BillingProvider,
  ) {}

  /** Where GET /checkout sends the person. */
  async checkoutUrl(principal: Principal | undefined): Promise<string> {
    const workspace = await this.workspace(principal);
    const client = this.provider.client();
    if (client && this.config.billingPriceId) {
      const metadata = { workspace_id: workspace.id };
      const session = await this.call(() =>
        client.checkout.sessions.create({
          mode: 'subscription',
          line_items: [{ price: this.config.billingPriceId, quantity: 1 }],
          client_reference_id: workspace.id,
          metadata,
          subscription_data: { metadata },
          ...(workspace.billing_customer_id ? { customer: workspace.billing_customer_id } : workspace.contact_email ? { customer_email: workspace.contact_email } : {}),
          success_url: `${this.config.baseUrl}/dashboard?checkout=done`,
          cancel_url: `${this.config.baseUrl}/dashboard?checkout=cancelled`,
        }),
      );
      if (!session.url) throw BillingError.providerUnavailable();
      return session.url;
    }
    if (!this.config.billingPaymentLink) throw BillingError.notConfigured('checkout (BILLING_PAYMENT_LINK, or BILLING_SECRET_KEY with BILLING_PRICE_ID)');
    const link = new URL(this.config.billingPaymentLink);
    link.searchParams.set('client_reference_id', workspace.id);
    if (workspace.contact_email) link.searchParams.set('prefilled_email', workspace.contact_email);
    return link.toString();
  }

  /** The customer portal of the workspace's customer (a session URL). */
  async portalUrl(principal: Principal | undefined): Promise<string> {
    const workspace = await this.workspace(principal);
    const client = this.provider.client();
    if (!client) throw BillingError.notConfigured('the billing portal (BILLING_SECRET_KEY)');
    if (!workspace.billing_customer_id) throw BillingError.noSubscription();
    const customer = workspace.billing_customer_id;
    const session = await this.call(() => client.billingPortal.sessions.create({ customer, return_url: `${this.config.baseUrl}/dashboard` }));
    return session.url;
  }

  /** The signed-in owner's or admin's workspace. */
  private async workspace(principal: Principal | undefined): Promise<WorkspaceBilling> {
    if (!this.config.isHosted || !principal || principal.kind === 'local') throw BillingError.notHosted();
    if (principal.kind !== 'session') throw BillingError.personRequired();
    if (principal.role !== 'owner' && principal.role !== 'admin') throw BillingError.notAllowed();
    const rows: WorkspaceBilling[] = await this.source.query('SELECT id, contact_email, billing_customer_id FROM control.tenants WHERE id = $1', [principal.tenantId]);
    if (!rows[0]) throw BillingError.notHosted();
    return rows[0];
  }

  /** A provider call; its failure is a 502 for the person, with the provider's error kept as the cause. */
  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw Object.assign(BillingError.providerUnavailable(), { cause: error });
    }
  }
}
