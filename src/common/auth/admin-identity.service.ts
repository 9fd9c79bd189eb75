import { Inject, Injectable } from '@nestjs/common';
import type { CookieOptions, Request, Response } from 'express';
import { cookieValue } from '../http/cookies';
import { CookieSigner, secretDigest, secretMatches } from '../http/signed-cookie';
import { PasswordAttempts } from '../rate-limit/password-attempts';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { WebSessions } from '../../modules/accounts/web-sessions.service';

export const ADMIN_COOKIE = 'baton_admin';
/** How long the admin password's cookie lasts: a working day, then the password again. */
export const ADMIN_COOKIE_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** Who a request is to the admin routes. */
export type AdminStanding = { kind: 'admin'; via: 'password' | 'session'; email?: string } | { kind: 'signed-in'; email: string } | { kind: 'anonymous' };

export type AdminLogin =
  { kind: 'open'; cookie: string; expiresAt: Date } | { kind: 'disabled' } | { kind: 'missing' } | { kind: 'wrong' } | { kind: 'limited'; retryAfterSeconds: number };

/**
 * The operator's identity. A person is an admin when signed in (web session)
 * with an address listed in SERVICE_ADMIN_EMAILS, or when their browser holds
 * the admin cookie that /admin/login sets for SERVICE_ADMIN_PASSWORD. The
 * cookie is stateless and short-lived; its key is derived from SESSION_SECRET
 * and the password's digest, so changing the password ends every admin cookie.
 */
@Injectable()
export class AdminIdentity {
  private readonly emails: ReadonlySet<string>;
  private readonly digest?: Buffer;
  private readonly signers: CookieSigner[];

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly sessions: WebSessions,
    private readonly attempts: PasswordAttempts,
  ) {
    this.emails = new Set(config.adminEmails);
    this.digest = config.adminPassword === undefined ? undefined : secretDigest(config.adminPassword);
    const purpose = `admin:${this.digest?.toString('hex') ?? 'none'}`;
    this.signers = [config.sessionSecret, ...config.previousSessionSecrets].map((secret) => new CookieSigner(secret, purpose));
  }

  /** Whether password sign-in (/admin/login) is offered. */
  get passwordEnabled(): boolean {
    return this.digest !== undefined;
  }

  async standing(req: Request): Promise<AdminStanding> {
    if (this.digest && this.signers.some((s) => s.verify(cookieValue(req.headers.cookie, ADMIN_COOKIE)))) return { kind: 'admin', via: 'password' };
    const person = await this.sessions.current(req);
    if (!person) return { kind: 'anonymous' };
    const email = person.email.toLowerCase();
    return this.emails.has(email) ? { kind: 'admin', via: 'session', email } : { kind: 'signed-in', email };
  }

  /** One admin password guess from `client`, counted against its address. */
  async login(password: unknown, client: string | undefined): Promise<AdminLogin> {
    if (!this.digest) return { kind: 'disabled' };
    if (typeof password !== 'string' || password === '') return { kind: 'missing' };
    const wait = await this.attempts.count('admin-login', client);
    if (wait > 0) return { kind: 'limited', retryAfterSeconds: wait };
    if (!secretMatches(password, this.digest)) return { kind: 'wrong' };
    const now = Date.now();
    return { kind: 'open', cookie: this.signers[0].issue(ADMIN_COOKIE_LIFETIME_MS, now), expiresAt: new Date(now + ADMIN_COOKIE_LIFETIME_MS) };
  }

  setCookie(res: Response, value: string): void {
    res.cookie(ADMIN_COOKIE, value, { ...this.cookieOptions(), maxAge: ADMIN_COOKIE_LIFETIME_MS });
  }

  clearCookie(res: Response): void {
    res.clearCookie(ADMIN_COOKIE, this.cookieOptions());
  }

  private cookieOptions(): CookieOptions {
    return { httpOnly: true, sameSite: 'strict', secure: this.config.baseUrl.startsWith('https:'), path: '/' };
  }
}
