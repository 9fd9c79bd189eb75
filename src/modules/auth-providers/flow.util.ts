import type { Response } from 'express';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { AuthProviderError } from './auth-providers.errors';
import type { FlowFailure } from './sign-in-pages';

/**
 * The `next` a flow starts with: none when absent; a same-origin path as given; anything else
 * (another site, `//host`, a scheme) refused with 400 before the provider is involved, so a link
 * built to bounce a person elsewhere after signing in starts nothing.
 */
export function startingNext(raw: unknown): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  const next = safeRedirectPath(raw);
  if (next === undefined) throw AuthProviderError.unsafeNext();
  return next;
}

/** Back to the sign-in page, which says why (a fixed message per reason: nothing of the request is echoed). */
export function toLoginPage(res: Response, reason: FlowFailure, provider: string, next?: string): void {
  const query = new URLSearchParams({ error: reason, provider });
  if (next) query.set('next', next);
  res.set('cache-control', 'no-store').redirect(303, `/auth/login?${query.toString()}`);
}
