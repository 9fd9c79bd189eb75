import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SignIn } from '../accounts/sign-in.service';
import { SIGN_IN_PROVIDERS, SignInProvider } from './auth-providers.constants';
import { AuthProviderError } from './auth-providers.errors';
import { startingNext, toLoginPage } from './flow.util';
import { ProviderDirectory } from './provider-directory.service';
import { ProviderStrategies } from './provider-strategies.service';
import { emailRequiredPage, failureMessage, isFlowFailure, loginPage, sendPage } from './sign-in-pages';

/**
 * Hosted sign-in through a provider (spec §5 flow 1) and its pages. A successful callback hands
 * the identity to the accounts' SignIn, which finds or creates the account, starts the web
 * session and redirects; every other ending goes back to the sign-in page with its reason and
 * starts no session.
 */
@Injectable()
export class ProviderSignIn {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: ProviderDirectory,
    private readonly strategies: ProviderStrategies,
    private readonly signIn: SignIn,
  ) {}

  loginPage(query: Record<string, unknown>, res: Response): void {
    this.assertHosted();
    const providers = this.directory.offered().map((id) => ({ id, label: this.directory.label(id) }));
    const provider = SIGN_IN_PROVIDERS.find((p) => p === query.provider || (p === 'codehost' && query.provider === 'repo'));
    const error = isFlowFailure(query.error) ? failureMessage(query.error, provider && this.directory.label(provider)) : undefined;
    sendPage(res, loginPage({ providers, next: safeRedirectPath(query.next), error }));
  }

  emailRequiredPage(query: Record<string, unknown>, res: Response): void {
    this.assertHosted();
    const provider = SIGN_IN_PROVIDERS.find((p) => p === query.provider);
    sendPage(res, emailRequiredPage(provider && this.directory.label(provider), safeRedirectPath(query.next)));
  }

  async start(provider: SignInProvider, next: unknown, req: Request, res: Response): Promise<void> {
    this.assertHosted();
    this.directory.setup(provider);
    const carried = { next: startingNext(next) };
    const failure = await this.strategies.start(provider, req, res, carried);
    if (failure) toLoginPage(res, failure, provider, carried.next);
  }

  async finish(provider: SignInProvider, req: Request, res: Response): Promise<void> {
    this.assertHosted();
    this.directory.setup(provider);
    const outcome = await this.strategies.finish(provider, req, res);
    if (!outcome.ok) return toLoginPage(res, outcome.reason, provider);
    res.set('cache-control', 'no-store');
    await this.signIn.complete(outcome.result.identity!, req, res, safeRedirectPath(outcome.carried.next));
  }

  private assertHosted(): void {
    if (!this.config.isHosted) throw AuthProviderError.notHosted();
  }
}
