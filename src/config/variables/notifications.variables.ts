import { httpUrl, integer, text } from '../config.parsers';
import { variable } from './variable';

/** Billing, e-mail and operator alerts. */
export const NOTIFICATION_VARIABLES = {
  billingSecretKey: variable<string | undefined>({
    name: 'BILLING_SECRET_KEY',
    description: 'payment provider API secret',
    sensitive: true,
    parse: text,
  }),
  billingWebhookSecret: variable<string | undefined>({
    name: 'BILLING_WEBHOOK_SECRET',
    description: 'payment provider webhook signing secret',
    sensitive: true,
    parse: text,
  }),
  billingPaymentLink: variable<string | undefined>({
    name: 'BILLING_PAYMENT_LINK',
    description: 'payment-link URL shown as the upgrade button',
    sensitive: false,
    parse: httpUrl,
  }),
  billingPriceId: variable<string | undefined>({
    name: 'BILLING_PRICE_ID',
    description: 'price of the paid plan: with BILLING_SECRET_KEY, GET /checkout opens a checkout session for it instead of the payment link',
    sensitive: false,
    parse: text,
  }),
  billingApiUrl: variable<string | undefined>({
    name: 'SERVICE_BILLING_API_URL',
    description: "base URL of the payment provider's API (default: the provider's public API)",
    sensitive: false,
    parse: httpUrl,
  }),
  marketplaceWebhookSecret: variable<string | undefined>({
    name: 'CODEHOST_MARKETPLACE_WEBHOOK_SECRET',
    description: 'secret of the code-host marketplace webhook (HMAC-SHA256 of the body, X-Hub-Signature-256)',
    sensitive: true,
    parse: text,
  }),
  emailApiKey: variable<string | undefined>({
    name: 'EMAIL_API_KEY',
    description: 'transactional e-mail key; when unset e-mail is skipped',
    sensitive: true,
    parse: text,
  }),
  fromEmail: variable<string | undefined>({
    name: 'SERVICE_FROM_EMAIL',
    description: 'sender address for outgoing e-mail',
    sensitive: false,
    parse: text,
  }),
  emailApiUrl: variable<string | undefined>({
    name: 'SERVICE_EMAIL_API_URL',
    description: "base URL of the e-mail API (default: the provider's public API)",
    sensitive: false,
    parse: httpUrl,
  }),
  adminNtfyUrl: variable<string | undefined>({
    name: 'SERVICE_ADMIN_NTFY_URL',
    description: 'where operator alerts are posted (a push budget that passed its hard limit)',
    sensitive: false,
    parse: httpUrl,
  }),
  adminEmail: variable<string | undefined>({
    name: 'ADMIN_EMAIL',
    description: 'operator address for alerts',
    sensitive: false,
    parse: text,
  }),
  notifyTimeoutMs: variable({
    name: 'SERVICE_NOTIFY_TIMEOUT_MS',
    description: 'deadline of one outbound notification attempt (webhook or e-mail); 3 attempts at most',
    sensitive: false,
    parse: integer(100, 60_000),
    default: 5000,
  }),
} as const;
