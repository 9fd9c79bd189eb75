import { Injectable } from '@nestjs/common';
import type { Plan } from '../../common/plans';
import { EmailQueue } from '../notifications/email-queue.service';
import { planChangedEmail } from '../notifications/templates/plan-changed.email';

/** The e-mails a plan change sends; queued, never awaited by the webhook that caused them. */
@Injectable()
export class BillingMails {
  constructor(private readonly queue: EmailQueue) {}

  planChanged(to: string, plan: Plan): void {
    this.queue.enqueue('plan_changed', planChangedEmail(to, plan));
  }
}
