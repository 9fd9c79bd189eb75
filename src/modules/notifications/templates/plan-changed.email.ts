import type { Plan } from '../../../common/plans';
import type { Email } from '../email.sender';
import { htmlLetter } from './email-html.util';

/** A workspace's plan moved (billing). */
export function planChangedEmail(to: string, plan: Plan): Email {
  const subject = plan === 'paid' ? 'Baton: paid plan active' : 'Baton: back on the free plan';
  const text =
    plan === 'paid'
      ? 'Your Baton workspace is now on the paid plan: push messaging, queued assistant tasks and the larger executor limits are on.'
      : 'Your Baton workspace is back on the free plan: messaging falls back to polling and queued assistant tasks are off. Nothing was deleted.';
  return { to, subject, text, html: htmlLetter(subject, [text]) };
}
