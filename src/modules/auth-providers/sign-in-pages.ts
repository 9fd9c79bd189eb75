import type { Response } from 'express';

/** Why a provider flow ended without signing in (the `error` of /auth/login); each has a message on that page. */
export type FlowFailure = 'denied' | 'state' | 'provider_error' | 'exchange' | 'unreachable' | 'session';

const FAILURES: Record<FlowFailure, (provider: string) => string> = {
  denied: (p) => `Sign-in with ${p} was cancelled, or ${p} refused it. Nothing was changed.`,
  state: () => 'This sign-in could not be completed: it was started in another browser, took more than 10 minutes, or its answer was altered. Please start again.',
  exchange: (p) => `${p} did not confirm this sign-in (its answer was already used, or was not meant for this request). Please start again.`,
  provider_error: (p) => `${p} reported an error. Please try again, or sign in another way.`,
  unreachable: (p) => `${p} could not be reached. Please try again in a moment, or sign in another way.`,
  session: () => 'The repository connection was started by another signed-in person, or you signed out meanwhile. Sign in and connect again.',
};

export function isFlowFailure(value: unknown): value is FlowFailure {
  return typeof value === 'string' && Object.hasOwn(FAILURES, value);
}

export function failureMessage(reason: FlowFailure, providerLabel: string | undefined): string {
  return FAILURES[reason](providerLabel ?? 'The provider');
}

export interface LoginPage {
  providers: { id: string; label: string }[];
  next?: string;
  error?: string;
}

/** GET /auth/login: the offered providers and the e-mail link form, no JavaScript. */
export function loginPage(page: LoginPage): string {
  const query = page.next ? `?next=${encodeURIComponent(page.next)}` : '';
  const providers = page.providers.map((p) => `<li><a class="provider" href="/auth/${p.id}/login${query}">Sign in with ${escapeHtml(p.label)}</a></li>`).join('\n');
  return layout(
    'Sign in to Baton',
    `${page.error ? `<p class="error" role="alert">${escapeHtml(page.error)}</p>` : ''}
${providers ? `<ul class="providers">\n${providers}\n</ul>\n<p class="or">or</p>` : ''}
${magicLinkForm(page.next)}`,
  );
}

/** GET /auth/email-required: the provider named no verified address. */
export function emailRequiredPage(providerLabel: string | undefined, next: string | undefined): string {
  const who = providerLabel ? escapeHtml(providerLabel) : 'Your sign-in provider';
  return layout(
    'A verified e-mail address is needed',
    `<p>${who} did not give Baton an e-mail address it has verified. Baton knows people by their verified address,
so that nobody can take over an account by typing someone else's address into a profile.</p>
<p>Verify your address with ${who} and <a href="/auth/login${next ? `?next=${encodeURIComponent(next)}` : ''}">sign in again</a>, or get a sign-in link by e-mail:</p>
${magicLinkForm(next)}`,
  );
}

function magicLinkForm(next: string | undefined): string {
  return `<form method="post" action="/auth/magic">
<label for="email">E-mail address</label>
<input type="email" id="email" name="email" required autocomplete="email" maxlength="254">
${next ? `<input type="hidden" name="next" value="${escapeHtml(next)}">` : ''}
<button type="submit">E-mail me a sign-in link</button>
</form>`;
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 28rem; margin: 3rem auto; padding: 0 1rem; line-height: 1.5; color: #1a1a1a; }
.providers { list-style: none; padding: 0; }
.providers li { margin: 0.5rem 0; }
a.provider, button { display: block; width: 100%; box-sizing: border-box; padding: 0.6rem; border: 1px solid #555; border-radius: 6px; background: #fff; color: #1a1a1a; text-align: center; text-decoration: none; font-size: 1rem; }
a.provider:focus, button:focus, input:focus { outline: 3px solid #1f6feb; outline-offset: 2px; }
label { display: block; margin-top: 1rem; }
input[type=email] { width: 100%; box-sizing: border-box; padding: 0.5rem; margin: 0.25rem 0 0.75rem; font-size: 1rem; }
.error { border: 1px solid #b00020; background: #fdecee; padding: 0.75rem; border-radius: 6px; }
.or { text-align: center; color: #555; }
</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Sends a sign-in page: not cached, not framed, no script, forms only to Baton itself. */
export function sendPage(res: Response, html: string, status = 200): void {
  res
    .status(status)
    .set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'DENY',
    })
    .send(html);
}
