import type { Request, Response } from 'express';
import { escapeHtml } from '../../common/http/html-page';

/**
 * The authorization server's pages: plain HTML that works without JavaScript. Every value shown
 * is escaped; every form carries the page's CSRF token. Pages are never framed (a consent button
 * under another site's frame is a click-jacking target) and never cached.
 */

/**
 * As HTML_PAGE_HEADERS (src/common/http/html-page.ts) but without `form-action 'self'`: the consent
 * form's answer redirects on to the client's own callback, which browsers check against form-action.
 */
export const PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set(PAGE_HEADERS).send(html);
}

/**
 * A refusal on a page route: the page (`html`, else an error page) for a browser, Baton's
 * `{detail}` for any client that asks for JSON rather than HTML.
 */
export function sendRefusal(req: Request, res: Response, status: number, detail: string, html?: string): void {
  if (req.accepts(['html', 'json']) === 'json') res.status(status).set('Cache-Control', 'no-store').json({ detail });
  else sendPage(res, status, html ?? errorPage(detail));
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Baton</title>
<style>body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1d1d1f}
h1{font-size:1.4rem}dl{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}dt{color:#555}dd{margin:0}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem;cursor:pointer}input[type=text]{font-size:1.3rem;letter-spacing:.1em;text-transform:uppercase;padding:.3rem}
.note{color:#555;font-size:.9rem}.error{color:#b00020}</style></head>
<body><main>${body}</main></body></html>`;
}

export function errorPage(message: string): string {
  return layout('Something went wrong', `<h1>Something went wrong</h1><p class="error">${escapeHtml(message)}</p>`);
}

/** What a person is asked to allow: the same block on the consent page and the device approval page. */
export interface GrantSummary {
  clientName: string;
  /** Where the client receives the answer (authorization code flow), or null (device flow). */
  redirectHost: string | null;
  scopes: string[];
  workspaceName: string;
  email: string;
}

const SCOPE_TEXT: Record<string, string> = {
  mcp: 'use Baton as you in this workspace: read and change its projects, sprint, tasks, notes and messages, over MCP and the API',
  offline_access: 'stay connected until you revoke it (a refresh token)',
  openid: 'learn your Baton identifier',
};

function summary(s: GrantSummary): string {
  const scopes = s.scopes.length > 0 ? s.scopes : ['mcp'];
  return `<dl>
<dt>Application</dt><dd><strong>${escapeHtml(s.clientName)}</strong></dd>
${s.redirectHost ? `<dt>Returns to</dt><dd>${escapeHtml(s.redirectHost)}</dd>` : ''}
<dt>Workspace</dt><dd>${escapeHtml(s.workspaceName)}</dd>
<dt>Signed in as</dt><dd>${escapeHtml(s.email)}</dd>
<dt>It may</dt><dd><ul>${scopes.map((scope) => `<li>${escapeHtml(SCOPE_TEXT[scope] ?? scope)}</li>`).join('')}</ul></dd>
</dl>`;
}

function decisionButtons(): string {
  return '<p><button type="submit" name="decision" value="approve">Allow</button><button type="submit" name="decision" value="deny">Deny</button></p>';
}

export function consentPage(action: string, csrf: string, grant: GrantSummary): string {
  return layout(
    'Allow access',
    `<h1>Allow ${escapeHtml(grant.clientName)} to use Baton?</h1>
${summary(grant)}
<form method="post" action="${escapeHtml(action)}"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">${decisionButtons()}</form>
<p class="note">Only allow applications you trust. To use another workspace, switch to it in Baton first, then connect again.</p>`,
  );
}

export const NO_WORKSPACE =
  'You belong to no workspace now: an application can only be given access to a workspace you are a member of. Join or choose one in Baton, then try again.';

export function codeEntryPage(csrf: string, problem?: string): string {
  return layout(
    'Connect a device',
    `<h1>Connect a device</h1>
<p>Enter the code your device shows.</p>${problem ? `<p class="error">${escapeHtml(problem)}</p>` : ''}
<form method="post" action="/activate"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><input type="text" name="user_code" autocomplete="off" autofocus required maxlength="32" placeholder="XXXX-XXXX" aria-label="Code"></p>
<p><button type="submit">Continue</button></p></form>`,
  );
}

export function deviceConfirmPage(csrf: string, userCode: string, grant: GrantSummary): string {
  return layout(
    'Connect a device',
    `<h1>Connect ${escapeHtml(grant.clientName)}?</h1>
<p>Check that your device shows <strong>${escapeHtml(userCode)}</strong>. If you did not start this, deny it.</p>
${summary(grant)}
<form method="post" action="/activate"><input type="hidden" name="csrf" value="${escapeHtml(csrf)}"><input type="hidden" name="user_code" value="${escapeHtml(userCode)}">${decisionButtons()}</form>`,
  );
}

export function deviceDonePage(outcome: 'approved' | 'denied' | 'unknown'): string {
  if (outcome === 'approved') return layout('Device connected', '<h1>Device connected</h1><p>You can close this page and go back to your device.</p>');
  if (outcome === 'denied') return layout('Access denied', '<h1>Access denied</h1><p>The device was not connected. You can close this page.</p>');
  return layout('Connect a device', '<h1>Connect a device</h1><p>Nothing to show here. To connect a device, open <a href="/activate">/activate</a>.</p>');
}

/** The machine-hooks install page: a short-lived install token, shown once, and the command that redeems it. */
export function installPage(statusUrl: string, installToken: string, minutes: number, workspaceName: string): string {
  const command = `curl -fsS "${statusUrl}?device_code=${installToken}"`;
  return layout(
    'Install the assistant hooks',
    `<h1>Install the assistant hooks</h1>
<p>On the machine whose assistant should report to <strong>${escapeHtml(workspaceName)}</strong>, run this once within ${minutes} minutes.
It answers the hooks' API token, which your hook configuration then sends as <code>Authorization: Bearer</code> (see the hooks guide).</p>
<pre><code>${escapeHtml(command)}</code></pre>
<p class="note">The install token works once and only for the next ${minutes} minutes; this page shows it only now. Opening the page again makes a new one.</p>`,
  );
}
