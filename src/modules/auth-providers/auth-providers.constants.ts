/** The sign-in providers of spec §5 flow 1: two OpenID Connect providers and the code host (plain OAuth 2). */
export type SignInProvider = 'idpa' | 'idpc' | 'codehost';

export const SIGN_IN_PROVIDERS: readonly SignInProvider[] = ['idpa', 'idpc', 'codehost'];

/** The OAuth flows Baton runs: a sign-in per provider, and the code host's repository connection. */
export type OAuthFlow = SignInProvider | 'repo';

/**
 * Scopes of the sign-in flows: identity only (spec: "sign-in alone grants no repository access").
 * OpenID providers: the subject, the address and whether the provider verified it, a display
 * name. The code host: the account and its addresses (`user:email` lists private ones, with
 * `verified`). The repository connection asks for CODEHOST_REPO_SCOPES instead.
 */
export const OIDC_SIGN_IN_SCOPES = ['openid', 'email', 'profile'];
export const CODEHOST_SIGN_IN_SCOPES = ['read:user', 'user:email'];

/** How long a started sign-in may take at the provider before its state is refused. */
export const OAUTH_STATE_TTL_MS = 10 * 60 * 1000;

/** Where a flow's state cookie is sent: every callback lives under /auth. */
export const OAUTH_STATE_COOKIE_PATH = '/auth';

export function stateCookieName(flow: OAuthFlow): string {
  return `baton_oauth_${flow}`;
}

/**
 * Where each flow asks its provider to send the browser back, under APP_URL. idpa's is the spec's
 * `/auth/callback`; `/auth/idpa/callback` is served too, for a provider registered with that
 * address, and a callback's code is exchanged with the address it arrived on.
 */
export const CALLBACK_PATHS: Readonly<Record<OAuthFlow, string>> = {
  idpa: '/auth/callback',
  idpc: '/auth/idpc/callback',
  codehost: '/auth/codehost/callback',
  repo: '/auth/codehost/repo-callback',
};

/** Deadline of one request to a provider (discovery, userinfo, the code host's API). */
export const PROVIDER_REQUEST_TIMEOUT_MS = 10_000;
