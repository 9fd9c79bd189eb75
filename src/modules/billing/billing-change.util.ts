import type { Plan } from '../../common/plans';

/** What one payment-provider event says about a workspace, in Baton's terms. */
export interface BillingChange {
  /** The workspace named by the event (client_reference_id or metadata.workspace_id), when it names one. */
  workspaceId: string | null;
  /** The provider's customer and subscription, to find the workspace when the event names none. */
  customerId: string | null;
  subscriptionId: string | null;
  /** The subscription status to keep; `plan` is what it means. */
  status: string;
  plan: Plan;
  /** When the provider created the event (its `created`, in seconds): an older event never overrides a newer state. */
  createdAt: Date;
}

/** The subscription statuses that keep the paid plan; a past-due one does too while the provider retries the payment. */
const PAID_STATUSES = new Set(['active', 'trialing', 'past_due']);

export const HANDLED_BILLING_EVENTS = [
  'checkout.session.completed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'invoice.payment_failed',
] as const;

interface ProviderEvent {
  type: string;
  created: number;
  data: { object: unknown };
}

type Fields = Record<string, unknown>;

/**
 * The change an event asks for, or null for a kind Baton does not act on.
 * A paid checkout starts the paid plan; a subscription's status decides its
 * plan (deleted: free); a failed invoice with no retry left ends it.
 */
export function billingChangeOf(event: ProviderEvent): BillingChange | null {
  const object = (event.data?.object ?? {}) as Fields;
  const createdAt = new Date(event.created * 1000);
  const metadata = (object.metadata ?? {}) as Fields;
  const workspaceFromMetadata = text(metadata.workspace_id);
  switch (event.type) {
    case 'checkout.session.completed': {
      const paid = object.payment_status === 'paid' || object.payment_status === 'no_payment_required';
      if (!paid) return null;
      return {
        workspaceId: text(object.client_reference_id) ?? workspaceFromMetadata,
        customerId: idOf(object.customer),
        subscriptionId: idOf(object.subscription),
        status: 'active',
        plan: 'paid',
        createdAt,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const status = event.type === 'customer.subscription.deleted' ? 'canceled' : (text(object.status) ?? 'incomplete');
      return { workspaceId: workspaceFromMetadata, customerId: idOf(object.customer), subscriptionId: text(object.id), status, plan: planOfStatus(status), createdAt };
    }
    case 'invoice.payment_failed': {
      // The provider retries a failed payment on its schedule; only the last failure (no next attempt) ends the paid plan.
      const final = object.next_payment_attempt === null || object.next_payment_attempt === undefined;
      const status = final ? 'unpaid' : 'past_due';
      const subscriptionId = idOf(object.subscription) ?? idOf((object.parent as Fields | undefined)?.subscription_details);
      return { workspaceId: workspaceFromMetadata, customerId: idOf(object.customer), subscriptionId, status, plan: planOfStatus(status), createdAt };
    }
    default:
      return null;
  }
}

export function planOfStatus(status: string): Plan {
  return PAID_STATUSES.has(status) ? 'paid' : 'free';
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** An expandable field: the id, or the expanded object's id. */
function idOf(value: unknown): string | null {
  if (typeof value === 'string') return text(value);
  if (value && typeof value === 'object') return text((value as Fields).id) ?? text((value as Fields).subscription);
  return null;
}
