import Stripe from 'stripe';
import { Receiver } from './http-receiver';

/** The SDK, used only for its test-header helper: signing needs no API key. */
const sdk = new Stripe('sk_test_signing_only');

export interface Delivery {
  /** Sign with this secret instead of the server's. */
  secret?: string;
  /** Signing time in seconds (default now). */
  timestamp?: number;
  /** Replaces the signature header altogether. */
  header?: string;
  /** Changes the body after it was signed. */
  tamper?: (payload: string) => string;
}

/** POSTs `event` to `<url>/webhooks/billing`, signed the way the provider signs it. */
export async function deliverBillingEvent(url: string, secret: string, event: object, delivery: Delivery = {}): Promise<{ status: number; body: any }> {
  const payload = JSON.stringify(event);
  const header = delivery.header ?? sdk.webhooks.generateTestHeaderString({ payload, secret: delivery.secret ?? secret, timestamp: delivery.timestamp });
  const res = await fetch(`${url}/webhooks/billing`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    body: delivery.tamper ? delivery.tamper(payload) : payload,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** An event of the provider's shape: `id`, `type`, `created` (seconds) and `data.object`. */
export function billingEvent(id: string, type: string, created: number, object: object): object {
  return { id, object: 'event', type, created, livemode: false, api_version: '2025-01-01', data: { object } };
}

/**
 * A local stand-in of the payment API (reached through the SDK's host/port/protocol): a checkout
 * session and a portal session answer with a URL; every request is recorded. A `status` of 400 or more
 * answers the provider's error body instead.
 */
export async function paymentApiStandIn(): Promise<Receiver> {
  const api = await Receiver.start();
  api.reply = (request) => {
    // The provider answers every failure with an `error` object (set `status` to fail the next requests).
    if (api.status >= 400) return { error: { type: 'api_error', message: 'the payment API is down' } };
    if (request.path === '/v1/checkout/sessions') return { id: 'cs_test_1', object: 'checkout.session', url: 'https://pay.example.test/c/cs_test_1' };
    if (request.path === '/v1/billing_portal/sessions') return { id: 'bps_test_1', object: 'billing_portal.session', url: 'https://pay.example.test/p/bps_test_1' };
    return { error: { type: 'invalid_request_error', message: `no route ${request.path}` } };
  };
  return api;
}

/** The form body the SDK sent (application/x-www-form-urlencoded), as a flat map of its bracketed keys. */
export function formOf(body: unknown): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : ''));
}
