import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { WebSessions } from '../accounts/web-sessions.service';
import { AuthProviderError } from './auth-providers.errors';
import { CodehostConnections } from './codehost-connections.service';
import { startingNext, toLoginPage } from './flow.util';
import { ProviderDirectory } from './provider-directory.service';
import { ProviderStrategies } from './provider-strategies.service';

/**
 * Connecting a signed-in person's code-host account (spec §5 flow 2), apart from sign-in: it asks
 * for CODEHOST_REPO_SCOPES and keeps the token (sealed) for the account that started it, which
 * must still be the one signed in when the code host sends the browser back.
 */
@Injectable()
export class RepoConnect {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: ProviderDirectory,
    private readonly strategies: ProviderStrategies,
    private readonly sessions: WebSessions,
    private readonly connections: CodehostConnections,
  ) {}

  async start(next: unknown, req: Request, res: Response): Promise<void> {
    this.assertOffered();
    const carried = { next: startingNext(next) };
    const person = await this.sessions.current(req);
    if (!person) return res.redirect(303, `/auth/login?${new URLSearchParams({ next: req.originalUrl }).toString()}`);
    const failure = await this.strategies.start('repo', req, res, { ...carried, accountId: person.accountId });
    if (failure) toLoginPage(res, failure, 'repo', carried.next);
  }

  async finish(req: Request, res: Response): Promise<void> {
    this.assertOffered();
    const outcome = await this.strategies.finish('repo', req, res);
    if (!outcome.ok) return toLoginPage(res, outcome.reason, 'repo');
    const person = await this.sessions.current(req);
    if (!person || person.accountId !== outcome.carried.accountId) return toLoginPage(res, 'session', 'repo');
    const { login, scopes, accessToken } = outcome.result;
    await this.connections.save(person.accountId, login!, scopes, accessToken);
    res.set('cache-control', 'no-store').redirect(303, safeRedirectPath(outcome.carried.next) ?? this.config.afterLoginUrl);
  }

  private assertOffered(): void {
    if (!this.config.isHosted) throw AuthProviderError.notHosted();
    this.directory.setup('repo');
  }
}
