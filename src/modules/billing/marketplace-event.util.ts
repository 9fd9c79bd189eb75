import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whether `header` (`sha256=<hex>`, the X-Hub-Signature-256 form) is the HMAC-SHA256 of `body` with `secret`. */
export function marketplaceSignatureValid(body: Buffer, header: string | undefined, secret: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header ?? '');
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

export interface MarketplaceChange {
  /** The code-host account (login) that bought or cancelled. */
  account: string;
  plan: 'free' | 'paid';
  status: string;
  /** The event's effective time: an older one never overrides a newer state. */
  createdAt: Date;
}

type Fields = Record<string, unknown>;

/**
 * A marketplace purchase event (`action` purchased / changed / cancelled, the
 * buyer under `marketplace_purchase.account.login`, the plan's `monthly_price_in_cents`),
 * or null for an action Baton does not act on or a body without a buyer.
 */
export function marketplaceChangeOf(body: unknown): MarketplaceChange | null {
  const event = (body ?? {}) as Fields;
  const purchase = (event.marketplace_purchase ?? {}) as Fields;
  const account = ((purchase.account ?? {}) as Fields).login;
  if (typeof account !== 'string' || !account) return null;
  const when = new Date(typeof event.effective_date === 'string' ? event.effective_date : NaN);
  if (Number.isNaN(when.getTime())) return null;
  const price = Number(((purchase.plan ?? {}) as Fields).monthly_price_in_cents ?? 0);
  switch (event.action) {
    case 'purchased':
    case 'changed':
      return price > 0 ? { account, plan: 'paid', status: 'active', createdAt: when } : { account, plan: 'free', status: 'free_plan', createdAt: when };
    case 'cancelled':
      return { account, plan: 'free', status: 'canceled', createdAt: when };
    default:
      return null;
  }
}
