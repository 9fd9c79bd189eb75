import { Inject, Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/**
 * The payment provider's SDK, configured once: BILLING_SECRET_KEY, and
 * SERVICE_BILLING_API_URL when the API is elsewhere than the provider's own
 * (a local stand-in in tests). Webhook signatures need no API key.
 */
@Injectable()
export class BillingProvider {
  private api?: Stripe;
  private signatures?: Stripe;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** The API client, or undefined without BILLING_SECRET_KEY. */
  client(): Stripe | undefined {
    const key = this.config.billingSecretKey;
    if (!key) return undefined;
    if (!this.api) {
      const url = this.config.billingApiUrl ? new URL(this.config.billingApiUrl) : undefined;
      const at = url ? { host: url.hostname, port: url.port || (url.protocol === 'http:' ? '80' : '443'), protocol: url.protocol.replace(':', '') as 'http' | 'https' } : {};
      this.api = new (sdk())(key, { ...at, timeout: this.config.notifyTimeoutMs, maxNetworkRetries: 1 });
    }
    return this.api;
  }

  /** The event of a signed body, with the SDK's default tolerance; throws when the signature, secret or age is wrong. */
  verify(rawBody: Buffer, signature: string, secret: string): Stripe.Event {
    return this.verifier().webhooks.constructEvent(rawBody, signature, secret);
  }

  private verifier(): Stripe {
    // Signature checks are pure computation; the SDK wants a key to be built, never used for them.
    this.signatures ??= new (sdk())(this.config.billingSecretKey ?? 'sk_unused_for_signatures');
    return this.signatures;
  }
}

/**
 * The SDK (about 200 files) loads when billing is first used, not at boot: most self-hosted
 * instances never bill, and every start would pay for it.
 */
function sdk(): typeof Stripe {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (see above)
  return require('stripe') as typeof Stripe;
}
