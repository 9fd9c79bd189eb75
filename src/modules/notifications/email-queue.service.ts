import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Metrics } from '../../common/observability/metrics';
import { Email, EmailSender } from './email.sender';

/** Which template an e-mail came from: what an admin sees of a failed send (never the address or the words). */
export type EmailKind = 'welcome' | 'magic_link' | 'invitation' | 'budget_warning' | 'budget_paused' | 'budget_admin_alert' | 'hitl_question' | 'plan_changed';

export interface EmailFailure {
  kind: EmailKind;
  /** Only the recipient's domain: enough to see a pattern, not who. */
  recipient_domain: string;
  error_class: string;
  failed_at: string;
}

export interface EmailQueueStats {
  configured: boolean;
  queued: number;
  sent: number;
  failed: number;
  recent_failures: EmailFailure[];
}

/** Rounds of the sender's own attempts (3 each, see EmailSender), and the wait before the next round. */
const ROUND_DELAYS_MS = [0, 1_000, 4_000];
const MAX_QUEUED = 1_000;
const KEPT_FAILURES = 50;

/**
 * E-mail off the path of the request that caused it: `enqueue` returns at
 * once; each e-mail is sent in the background, in up to three rounds with a
 * growing pause between them. A send that still fails is counted and kept
 * (kind, recipient domain, error class) for GET /admin/health. The queue is in
 * memory: what is still queued when the process stops is waited for on a
 * graceful shutdown, lost on a crash.
 */
@Injectable()
export class EmailQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('email');
  private readonly inFlight = new Set<Promise<void>>();
  private readonly failures: EmailFailure[] = [];
  private sent = 0;
  private failed = 0;

  constructor(
    private readonly sender: EmailSender,
    metrics: Metrics,
  ) {
    metrics.gauge('baton_email_queue_depth', 'E-mails waiting to be handed to the provider', () => this.inFlight.size);
  }

  /** Queues `email`; never throws and never waits for the provider. Without EMAIL_API_KEY it is skipped. */
  enqueue(kind: EmailKind, email: Email): void {
    if (!this.sender.configured) return;
    if (this.inFlight.size >= MAX_QUEUED) return this.record(kind, email.to, 'QueueFull');
    const work = this.deliver(kind, email).finally(() => this.inFlight.delete(work));
    this.inFlight.add(work);
  }

  stats(): EmailQueueStats {
    return { configured: this.sender.configured, queued: this.inFlight.size, sent: this.sent, failed: this.failed, recent_failures: [...this.failures] };
  }

  /** Waits for what is queued (tests, and a graceful shutdown). */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
  }

  private async deliver(kind: EmailKind, email: Email): Promise<void> {
    let error = 'unknown';
    for (const delay of ROUND_DELAYS_MS) {
      if (delay) await new Promise((resolve) => setTimeout(resolve, delay).unref());
      try {
        const outcome = await this.sender.send(email);
        if (outcome !== 'failed') {
          if (outcome === 'sent') this.sent++;
          return;
        }
        error = 'ProviderRefused';
      } catch (cause) {
        error = (cause as Error).name;
      }
    }
    this.record(kind, email.to, error);
  }

  private record(kind: EmailKind, to: string, errorClass: string): void {
    this.failed++;
    this.failures.push({ kind, recipient_domain: to.split('@').pop() ?? '', error_class: errorClass, failed_at: new Date().toISOString() });
    if (this.failures.length > KEPT_FAILURES) this.failures.shift();
    this.logger.warn({ msg: 'e-mail not sent after every retry', kind, error_class: errorClass });
  }
}
