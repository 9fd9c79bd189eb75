import type { Email } from '../email.sender';
import { htmlLetter } from './email-html.util';

export interface BudgetFigures {
  month: string;
  count: number;
  thresholds: { warning: number; disable: number; admin_alert: number };
}

/** Tier 1 (spec §8): most of the month's push budget is used. */
export function budgetWarningEmail(to: string, status: BudgetFigures): Email {
  const subject = 'Baton: real-time push has used most of this month’s budget';
  const text =
    `Your workspace has sent ${status.count} push commands in ${status.month} (warning threshold ${status.thresholds.warning}). ` +
    `At ${status.thresholds.disable} push pauses until next month; messages keep arriving through polling, nothing is lost.`;
  return { to, subject, text, html: htmlLetter(subject, [text]) };
}

/** Tier 2: the hard limit, push paused until next month. */
export function budgetPausedEmail(to: string, status: BudgetFigures): Email {
  const subject = 'Baton: real-time push paused until next month (hard limit reached)';
  const text =
    `Your workspace reached ${status.thresholds.disable} push commands in ${status.month}. Push is paused until the start of next month (UTC). ` +
    'Messages and HITL answers still arrive, a little later, through polling; nothing is lost.';
  return { to, subject, text, html: htmlLetter(subject, [text]) };
}

/** Tier 3: the operator's alert, the pause did not hold. */
export function budgetAdminAlertEmail(to: string, tenantId: string, status: BudgetFigures): Email {
  const subject = `Baton admin alert: push budget gate failed for tenant ${tenantId}`;
  const text = `Tenant ${tenantId} reached ${status.count} push commands in ${status.month}, past the admin threshold ${status.thresholds.admin_alert}: the pause at ${status.thresholds.disable} did not hold.`;
  return { to, subject, text, html: htmlLetter(subject, [text]) };
}
