import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import type { CookieOptions } from 'express';
import { createHash } from 'node:crypto';
import { DomainErrorOf, StatusTable } from '../../common/errors/domain-error';
import { RequestError } from '../../common/errors/request-error';
import { cookieValue } from '../../common/http/cookies';
import { CookieSigner } from '../../common/http/signed-cookie';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { DEMO_PROJECT_ID } from './demo-store.service';

export const DEMO_COOKIE = 'baton_demo';
/** How long a demo cookie lasts. */
export const DEMO_COOKIE_LIFETIME_MS = 60 * 60 * 1000;
/** Demo cookies per client address per minute. */
export const DEMO_AUTH_LIMIT = { hits: 10, windowMs: 60_000 };

export enum DemoErrorCode {
  AuthRequired = 'DEMO_AUTH_REQUIRED',
  ReadOnly = 'DEMO_READ_ONLY',
}

const STATUS: StatusTable<DemoErrorCode> = {
  [DemoErrorCode.AuthRequired]: HttpStatus.UNAUTHORIZED,
  [DemoErrorCode.ReadOnly]: HttpStatus.FORBIDDEN,
};

/** Refusals of the demo's routes. */
export class DemoError extends DomainErrorOf(STATUS) {
  static authRequired() {
    return new DemoError(DemoErrorCode.AuthRequired, 'the demo needs its cookie: POST /demo-auth first (no password; it lasts an hour)');
  }

  static readOnly() {
    return new DemoError(DemoErrorCode.ReadOnly, 'the demo project is read-only: nothing can be changed with the demo cookie');
  }
}

/**
 * The demo's cookie: `POST /demo-auth` gives anyone a signed, short-lived cookie (an hour,
 * stateless like the gate's, `Path=/demo` so the browser sends it nowhere else) that opens the
 * demo project's read-only routes under /demo. It is no credential of any workspace: every other
 * route ignores it.
 */
@Injectable()
export class DemoAccess {
  private readonly signer: CookieSigner;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly limiter: WindowLimiter,
  ) {
    this.signer = new CookieSigner(config.sessionSecret, 'demo');
  }

  async issue(client: string | undefined): Promise<{ cookie: string; body: { detail: string; project_id: string; expires_at: string } }> {
    const key = createHash('sha256')
      .update(client ?? 'unknown')
      .digest('hex')
      .slice(0, 32);
    const wait = await this.limiter.hit('demo-auth', key, DEMO_AUTH_LIMIT.hits, DEMO_AUTH_LIMIT.windowMs);
    if (wait) throw RequestError.rateLimited(`too many demo sign-ins from this address; retry in ${wait} s`, wait);
    const now = Date.now();
    return {
      cookie: this.signer.issue(DEMO_COOKIE_LIFETIME_MS, now),
      body: { detail: 'demo cookie issued: read-only, for the demo project only', project_id: DEMO_PROJECT_ID, expires_at: new Date(now + DEMO_COOKIE_LIFETIME_MS).toISOString() },
    };
  }

  /** Throws unless the request carries a valid demo cookie. */
  require(cookieHeader: string | undefined): void {
    if (!this.signer.verify(cookieValue(cookieHeader, DEMO_COOKIE))) throw DemoError.authRequired();
  }

  cookieOptions(): CookieOptions {
    return { httpOnly: true, sameSite: 'lax', secure: this.config.baseUrl.startsWith('https:'), path: '/demo', maxAge: DEMO_COOKIE_LIFETIME_MS };
  }
}
