import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { Accounts, ProviderIdentity } from './accounts.service';
import { WebSessions } from './web-sessions.service';

export const EMAIL_REQUIRED_PATH = '/auth/email-required';

/**
 * The end of every sign-in flow (a provider's callback, a magic link): the
 * account is found or created, a new web session starts, and the browser goes
 * on to `next` when that is a path on this site, else SERVICE_AFTER_LOGIN_URL.
 * A provider that vouches for no verified e-mail address signs no one in.
 */
@Injectable()
export class SignIn {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly accounts: Accounts,
    private readonly sessions: WebSessions,
  ) {}

  async complete(identity: ProviderIdentity, req: Request, res: Response, next?: unknown): Promise<void> {
    const email = identity.email?.trim();
    if (!email || !identity.emailVerified || !/^[^\s@]+@[^\s@]+$/.test(email)) {
      res.redirect(303, EMAIL_REQUIRED_PATH);
      return;
    }
    const { accountId, tenantId } = await this.accounts.signInAs({ ...identity, email });
    await this.sessions.start(req, res, accountId, tenantId, identity.provider);
    await this.accounts.welcomeIfNew(accountId, tenantId, email);
    res.redirect(303, safeRedirectPath(next) ?? this.config.afterLoginUrl);
  }
}
