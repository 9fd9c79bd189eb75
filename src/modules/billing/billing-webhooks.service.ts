import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { billingChangeOf } from './billing-change.util';
import { BillingError } from './billing.errors';
import { BillingLedger, LedgerOutcome } from './billing-ledger.service';
import { BillingProvider } from './billing-provider';
import { marketplaceChangeOf, marketplaceSignatureValid } from './marketplace-event.util';

export interface WebhookAnswer {
  received: true;
  /** What Baton did with the event: applied, duplicate (seen before), stale (older than the state kept), ignored, unknown_workspace. */
  outcome: LedgerOutcome;
}

/**
 * Verifies a webhook on the exact bytes received (the route's body is never
 * parsed before), then hands the event to the ledger. Anything but a valid
 * signature is refused before a byte of it is read as an event.
 */
@Injectable()
export class BillingWebhooks {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly provider: BillingProvider,
    private readonly ledger: BillingLedger,
  ) {}

  async billing(body: unknown, signature: string | undefined): Promise<WebhookAnswer> {
    const secret = this.config.billingWebhookSecret;
    if (!this.config.isHosted || !secret) throw BillingError.notConfigured('the billing webhook (BILLING_WEBHOOK_SECRET)');
    if (!signature) throw BillingError.badSignature('Stripe-Signature');
    let event;
    try {
      event = this.provider.verify(rawOf(body), signature, secret);
    } catch (error) {
      // The SDK reads the body as JSON only after the signature matched.
      throw error instanceof SyntaxError ? BillingError.notJson() : BillingError.badSignature('Stripe-Signature');
    }
    const change = billingChangeOf(event);
    const key = change && { workspaceId: change.workspaceId, customerId: change.customerId, subscriptionId: change.subscriptionId };
    return { received: true, outcome: await this.ledger.record('billing', event.id, event.type, key, change) };
  }

  async marketplace(body: unknown, signature: string | undefined, delivery: string | undefined): Promise<WebhookAnswer> {
    const secret = this.config.marketplaceWebhookSecret;
    if (!this.config.isHosted || !secret) throw BillingError.notConfigured('the marketplace webhook (CODEHOST_MARKETPLACE_WEBHOOK_SECRET)');
    const raw = rawOf(body);
    if (!marketplaceSignatureValid(raw, signature, secret)) throw BillingError.badSignature('X-Hub-Signature-256');
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw.toString('utf8'));
    } catch {
      throw BillingError.notJson();
    }
    const change = marketplaceChangeOf(parsed);
    // Without a delivery id, the signed body itself names the event: the same delivery sent again is the same bytes.
    const eventId = delivery && delivery.length <= 200 ? delivery : createHash('sha256').update(raw).digest('hex');
    const kind = `marketplace_purchase.${String((parsed as { action?: unknown })?.action ?? 'unknown').slice(0, 40)}`;
    const key = change && { marketplaceAccount: change.account };
    const ledgerChange = change && { plan: change.plan, status: change.status, createdAt: change.createdAt, marketplaceAccount: change.account };
    return { received: true, outcome: await this.ledger.record('codehost-marketplace', eventId, kind, key, ledgerChange) };
  }
}

/** The route's body as received; an empty body when none came. */
function rawOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}
