import type { Email } from '../email.sender';
import type { NotificationMessage } from '../notification.message';
import { htmlLetter, oneLine } from './email-html.util';

/** A project notification by e-mail: a HITL question waiting for an answer, or a test notification. */
export function notificationEmail(to: string, message: NotificationMessage): Email {
  return { to, subject: oneLine(message.title), text: message.body, html: htmlLetter(message.title, [message.body]) };
}
