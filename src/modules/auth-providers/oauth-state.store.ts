import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import { SecretBox } from '../../../libs/tenancy';
import { OAUTH_STATE_COOKIE_PATH, OAUTH_STATE_TTL_MS, OAuthFlow, stateCookieName } from './auth-providers.constants';

/** What a flow carries from its start to its callback besides the state and the PKCE verifier. */
export interface FlowState {
  /** Where to go afterwards: a same-origin path, checked when the flow started. */
  next?: string;
  /** The repository connection: the account that started it, who must be the one finishing it. */
  accountId?: string;
}

/** The sealed cookie's content. */
interface Kept {
  flow: OAuthFlow;
  state: string;
  verifier: string;
  next?: string;
  accountId?: string;
  expires: number;
}

/** Why a callback's state was refused (passport-oauth2 passes it on as the failure's challenge). */
export const STATE_REFUSED = { message: 'the sign-in state is missing, expired or altered' };

type Stored = (err: Error | null, state?: string) => void;
type Verified = (err: Error | null, ok: string | false, state?: FlowState | typeof STATE_REFUSED) => void;

/**
 * passport-oauth2's state store (`store` / `verify`, PKCE arity) that keeps a flow's state, PKCE
 * verifier and next in a cookie of the browser that started it, sealed with AES-GCM (SecretBox):
 * nothing server-side, so any instance can finish a flow another started, and a callback is
 * accepted only in that browser, within OAUTH_STATE_TTL_MS, with the state the provider echoed.
 * The cookie is HttpOnly, SameSite=Lax (sent on the provider's top-level redirect back), scoped
 * to /auth, and cleared by the callback whatever its outcome, so a browser uses it once; the
 * authorization code it guards is single-use at the provider.
 */
export class SealedStateStore {
  constructor(
    private readonly flow: OAuthFlow,
    private readonly box: SecretBox,
    private readonly secureCookie: boolean,
  ) {}

  get cookieName(): string {
    return stateCookieName(this.flow);
  }

  store(req: Request, verifier: string, carried: FlowState | undefined, _meta: unknown, done: Stored): void {
    const state = randomBytes(32).toString('base64url');
    const kept: Kept = { flow: this.flow, state, verifier, next: carried?.next, accountId: carried?.accountId, expires: Date.now() + OAUTH_STATE_TTL_MS };
    req.res!.cookie(this.cookieName, this.box.seal(JSON.stringify(kept)), {
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookie,
      path: OAUTH_STATE_COOKIE_PATH,
      maxAge: OAUTH_STATE_TTL_MS,
    });
    done(null, state);
  }

  verify(req: Request, provided: unknown, _meta: unknown, done: Verified): void {
    const kept = this.open(readCookie(req, this.cookieName));
    if (!kept || typeof provided !== 'string' || !sameText(provided, kept.state)) return done(null, false, STATE_REFUSED);
    done(null, kept.verifier, { next: kept.next, accountId: kept.accountId });
  }

  /** Clears the cookie: every callback does, before anything else. */
  clear(res: Request['res']): void {
    res?.clearCookie(this.cookieName, { httpOnly: true, sameSite: 'lax', secure: this.secureCookie, path: OAUTH_STATE_COOKIE_PATH });
  }

  private open(sealed: string | undefined): Kept | undefined {
    if (!sealed) return undefined;
    try {
      const kept = JSON.parse(this.box.open(sealed)) as Kept;
      return kept.flow === this.flow && typeof kept.state === 'string' && typeof kept.verifier === 'string' && kept.expires > Date.now() ? kept : undefined;
    } catch {
      return undefined; // altered, sealed under another secret, or not ours: the same refusal
    }
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** One cookie of the request, read from the header (no cookie parser is needed for it). */
export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}
