import type { Email } from '../email.sender';
import { htmlLetter } from './email-html.util';

/** The sign-in link e-mail (POST /auth/magic). */
export function magicLinkEmail(to: string, link: string, ttlMinutes: number): Email {
  const subject = 'Your Baton sign-in link';
  const after = `It works once, for ${ttlMinutes} minutes. If you did not ask to sign in, ignore this e-mail: nothing happens without the link.`;
  return {
    to,
    subject,
    text: `Open this link to sign in to Baton:\n\n${link}\n\n${after}\n`,
    html: htmlLetter(subject, ['Open this link to sign in to Baton:', { link, label: 'Sign in to Baton' }, after]),
  };
}
