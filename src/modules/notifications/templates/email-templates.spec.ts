import type { Email } from '../email.sender';
import { budgetAdminAlertEmail, budgetPausedEmail, budgetWarningEmail } from './budget.email';
import { inviteEmail } from './invite.email';
import { magicLinkEmail } from './magic-link.email';
import { notificationEmail } from './notification.email';
import { planChangedEmail } from './plan-changed.email';
import { welcomeEmail } from './welcome.email';

const EVIL = `<script>alert("x")</script>&'`;
const figures = { month: '2026-11', count: 500_000, thresholds: { warning: 500_000, disable: 1_000_000, admin_alert: 2_000_000 } };

/** Every template, with a hostile value in each field a person or a provider can choose. */
const LETTERS: [string, Email][] = [
  ['welcome', welcomeEmail('a@example.test', EVIL, 'https://baton.example.test')],
  ['magic link', magicLinkEmail('a@example.test', `https://baton.example.test/auth/magic/verify?token=abc"><script>`, 15)],
  [
    'invitation',
    inviteEmail({ to: 'b@example.test', role: 'admin', workspace: EVIL, inviter: EVIL, link: 'https://baton.example.test/workspace/accept?token=t', expiresAt: new Date(0) }),
  ],
  ['budget warning', budgetWarningEmail('a@example.test', figures)],
  ['budget paused', budgetPausedEmail('a@example.test', figures)],
  ['budget admin alert', budgetAdminAlertEmail('ops@example.test', EVIL, figures)],
  ['HITL question', notificationEmail('a@example.test', { title: EVIL, body: `Question: ${EVIL}`, event: 'hitl_request', source: 'baton' })],
  ['plan changed', planChangedEmail('a@example.test', 'paid')],
];

describe('e-mail templates', () => {
  test.each(LETTERS)('%s has a text part and an HTML part', (_name, letter) => {
    expect(letter.text.length).toBeGreaterThan(20);
    expect(letter.html).toMatch(/^<!doctype html>.*<\/html>$/s);
    expect(letter.subject).not.toMatch(/[\r\n]/);
  });

  test.each(LETTERS)('%s escapes everything interpolated into its HTML', (_name, letter) => {
    expect(letter.html).not.toContain('<script>');
    expect(letter.html).not.toContain('alert("x")');
    expect(letter.html).not.toMatch(/token=abc"/);
  });

  test('a hostile workspace name reaches the HTML escaped, and the text part unchanged', () => {
    const letter = welcomeEmail('a@example.test', EVIL, 'https://baton.example.test');
    expect(letter.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    expect(letter.text).toContain(EVIL);
  });

  test('the welcome e-mail says how to make the first API token and where the MCP endpoint is', () => {
    const letter = welcomeEmail('a@example.test', 'Ada’s workspace', 'https://baton.example.test');
    for (const part of [letter.text, letter.html!]) {
      expect(part).toMatch(/first API token/);
      expect(part).toContain('https://baton.example.test/mcp');
    }
  });

  test('the magic-link text part keeps its exact words; the link is in both parts', () => {
    const link = 'https://baton.example.test/auth/magic/verify?token=abc';
    const letter = magicLinkEmail('a@example.test', link, 15);
    expect(letter.text).toBe(
      `Open this link to sign in to Baton:\n\n${link}\n\nIt works once, for 15 minutes. If you did not ask to sign in, ignore this e-mail: nothing happens without the link.\n`,
    );
    expect(letter.html).toContain(`href="${link}"`);
  });
});
