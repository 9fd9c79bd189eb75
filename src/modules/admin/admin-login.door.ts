import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AdminIdentity } from '../../common/auth/admin-identity.service';
import { RequestError } from '../../common/errors/request-error';
import { HTML_PAGE_HEADERS, passwordPage } from '../../common/http/html-page';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { AdminLoginDto } from './dto/admin-login.dto';

/** Where a browser lands after the admin password: the console. */
export const ADMIN_HOME = '/admin';

/**
 * GET and POST /admin/login: the admin password (SERVICE_ADMIN_PASSWORD)
 * exchanged for the short-lived admin cookie. A form post is answered as a
 * browser expects (a redirect, or the page again with what went wrong), JSON
 * with JSON. Without the setting the route does not exist (404).
 */
@Injectable()
export class AdminLoginDoor {
  private readonly logger = new Logger('admin-login');

  constructor(private readonly identity: AdminIdentity) {}

  page(next: unknown, res: Response): void {
    this.requireEnabled();
    res
      .status(200)
      .set(HTML_PAGE_HEADERS)
      .send(loginPage(safeRedirectPath(next) ?? ADMIN_HOME));
  }

  async signIn(body: AdminLoginDto, req: Request, res: Response): Promise<void> {
    this.requireEnabled();
    const form = Boolean(req.is('application/x-www-form-urlencoded'));
    const next = safeRedirectPath(body.next) ?? ADMIN_HOME;
    const outcome = await this.identity.login(body.password, req.ip);
    // Every attempt is on record (who from, and how it ended), never what was typed; at warn, so
    // an instance logging only warnings still keeps its admin sign-ins.
    this.logger.warn({ msg: 'admin password attempt', outcome: outcome.kind, client: req.ip ?? null, user_agent: req.get('user-agent')?.slice(0, 200) ?? null });
    res.setHeader('Cache-Control', 'no-store');
    const refuse = (status: number, detail: string, code?: string) =>
      form ? res.status(status).set(HTML_PAGE_HEADERS).send(loginPage(next, detail)) : res.status(status).json({ detail, ...(code ? { code } : {}) });
    switch (outcome.kind) {
      case 'disabled':
        throw disabled();
      case 'missing':
        throw RequestError.invalidInput('password is required');
      case 'wrong':
        refuse(401, 'wrong admin password');
        return;
      case 'limited':
        res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
        refuse(429, `too many admin password attempts from this address; retry in ${outcome.retryAfterSeconds} s`, 'RATE_LIMITED');
        return;
      case 'open':
        this.identity.setCookie(res, outcome.cookie);
        if (form) res.redirect(303, next);
        else res.status(200).json({ detail: 'signed in as admin', expires_at: outcome.expiresAt.toISOString(), next });
        return;
    }
  }

  private requireEnabled(): void {
    if (!this.identity.passwordEnabled) throw disabled();
  }
}

function disabled() {
  return RequestError.notFound('admin password sign-in is not enabled on this instance (SERVICE_ADMIN_PASSWORD is unset)');
}

function loginPage(next: string, message?: string): string {
  return passwordPage({ title: 'Baton admin', heading: 'Baton admin', label: 'Admin password', action: '/admin/login', next, message });
}
