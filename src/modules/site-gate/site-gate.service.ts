import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions } from 'express';
import { cookieValue } from '../../common/http/cookies';
import { CookieSigner, secretDigest, secretMatches } from '../../common/http/signed-cookie';
import { PasswordAttempts } from '../../common/rate-limit/password-attempts';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

export const GATE_PATH = '/__gate__';
export const GATE_COOKIE = 'baton_gate';
/** How long a browser that gave the site password keeps passing the gate. */
export const GATE_COOKIE_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export type GateAttempt = { kind: 'open'; cookie: string } | { kind: 'missing' } | { kind: 'wrong' } | { kind: 'limited'; retryAfterSeconds: number };

/**
 * The site password (SITE_PASSWORD): when it is set, every route but /health
 * and /demo (each with what lies under it) and the gate itself needs the gate
 * cookie, which POST /__gate__ sets for the right password. The cookie proves
 * it was issued here for this password (its key is derived from
 * SESSION_SECRET and the password's digest), so changing the password turns
 * every issued cookie away, and nothing is stored. A secret rotated into
 * SERVICE_PREVIOUS_SESSION_SECRETS keeps its cookies valid, as it does the
 * web session's.
 */
@Injectable()
export class SiteGate {
  readonly enabled: boolean;
  private readonly digest: Buffer;
  /** The first issues; each accepts (SESSION_SECRET, then SERVICE_PREVIOUS_SESSION_SECRETS). */
  private readonly signers: CookieSigner[];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly attempts: PasswordAttempts,
  ) {
    this.enabled = Boolean(config.sitePassword);
    this.digest = secretDigest(config.sitePassword ?? '');
    const purpose = `site-gate:${this.digest.toString('hex')}`;
    this.signers = [config.sessionSecret, ...config.previousSessionSecrets].map((secret) => new CookieSigner(secret, purpose));
  }

  /** Whether a request for `path` carrying this Cookie header may go on. */
  admits(path: string, cookieHeader: string | undefined): boolean {
    if (!this.enabled || isExempt(path)) return true;
    const cookie = cookieValue(cookieHeader, GATE_COOKIE);
    return this.signers.some((signer) => signer.verify(cookie));
  }

  /** One password guess from `client`, counted against its address. */
  async attempt(password: unknown, client: string | undefined): Promise<GateAttempt> {
    if (typeof password !== 'string' || password === '') return { kind: 'missing' };
    const wait = await this.attempts.count('site-gate', client);
    if (wait > 0) return { kind: 'limited', retryAfterSeconds: wait };
    if (!secretMatches(password, this.digest)) return { kind: 'wrong' };
    return { kind: 'open', cookie: this.signers[0].issue(GATE_COOKIE_LIFETIME_MS) };
  }

  cookieOptions(): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: this.config.baseUrl.startsWith('https:'), path: '/', maxAge: GATE_COOKIE_LIFETIME_MS };
  }
}

/**
 * /health and /demo, and every path under them, pass without the password (Express matches paths
 * case-insensitively), and so does /demo-auth, which gives the demo's own cookie.
 */
export function isExempt(path: string): boolean {
  return /^\/(health|demo)(\/|$)|^\/demo-auth\/?$/i.test(path);
}

/** Whether `path` is the gate's own route (Express ignores case and one trailing slash). */
export function isGatePath(path: string): boolean {
  return /^\/__gate__\/?$/i.test(path);
}
