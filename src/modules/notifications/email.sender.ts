import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { Resend } from 'resend';
import { Backoff, retry } from '../../../libs/retry';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

export type EmailOutcome = 'sent' | 'skipped' | 'failed';

export interface Email {
  to: string;
  subject: string;
  text: string;
  /** The HTML part (templates/): the same words, every interpolated value escaped. */
  html?: string;
}

const ATTEMPTS = 3;
const SEND_BACKOFF: Backoff = { firstMs: 250 };

/**
 * Transactional e-mail through the provider's SDK. Without EMAIL_API_KEY
 * every send is skipped silently. Each attempt has SERVICE_NOTIFY_TIMEOUT_MS;
 * at most 3 attempts share one idempotency key, so a retry never sends twice.
 */
@Injectable()
export class EmailSender {
  private readonly logger = new Logger('email');
  private readonly from: string;
  /** The provider's SDK is loaded with the first e-mail, and only when e-mail is configured. */
  private client?: Resend;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.from = config.fromEmail ?? `Baton <baton@${new URL(config.baseUrl).hostname}>`;
  }

  get configured(): boolean {
    return Boolean(this.config.emailApiKey);
  }

  async send(email: Email): Promise<EmailOutcome> {
    const client = this.sdk();
    if (!client) return 'skipped';
    const idempotencyKey = randomUUID();
    const delivery = await retry<void, string>(
      async () => {
        try {
          const { error } = await client.emails.send(
            { from: this.from, to: email.to, subject: email.subject, text: email.text, ...(email.html ? { html: email.html } : {}) },
            { idempotencyKey, signal: AbortSignal.timeout(this.config.notifyTimeoutMs) },
          );
          if (!error) return { ok: true, value: undefined };
          const status = (error as { statusCode?: number | null }).statusCode;
          return { ok: false, failure: error.name, final: Boolean(status && status < 500 && status !== 429) };
        } catch (error) {
          return { ok: false, failure: (error as Error).name };
        }
      },
      { backoff: SEND_BACKOFF, attempts: ATTEMPTS },
    );
    if (delivery.ok) return 'sent';
    const errorName = delivery.failure ?? 'unknown';
    this.logger.warn({ msg: 'e-mail not sent', error_class: errorName });
    return 'failed';
  }

  private sdk(): Resend | undefined {
    const { emailApiKey, emailApiUrl } = this.config;
    if (!emailApiKey) return undefined;
    if (!this.client) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- resend loads on the first e-mail of an instance that has an API key, not at boot
      const { Resend } = require('resend') as typeof import('resend');
      this.client = new Resend(emailApiKey, emailApiUrl ? { baseUrl: emailApiUrl } : undefined);
    }
    return this.client;
  }
}
