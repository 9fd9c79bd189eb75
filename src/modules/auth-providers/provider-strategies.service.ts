import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { AuthenticateOptions } from 'passport';
import type OAuth2Strategy from 'passport-oauth2';
import { SecretBox } from '../../../libs/tenancy';
import { sealerFor } from '../../common/sealer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { ProviderIdentity } from '../accounts/accounts.service';
import { CALLBACK_PATHS, OAuthFlow } from './auth-providers.constants';
import { ProviderDirectory, ProviderEndpoints } from './provider-directory.service';
import { providerJson, ProviderUnavailable, UnusableIdentity } from './provider-http';
import { codehostAccount, codehostIdentity, grantedScopes, oidcIdentity } from './provider-identity';
import { FlowState, SealedStateStore } from './oauth-state.store';
import type { FlowFailure } from './sign-in-pages';

/** What a provider told Baton at a callback. The access token is kept only by the repository connection. */
export interface FlowResult {
  /** Sign-in flows: who signed in. */
  identity?: ProviderIdentity;
  /** The repository connection: the code-host account the token acts as. */
  login?: string;
  accessToken: string;
  scopes: string[];
}

/** passport-oauth2's options of `authenticate`: app state carried through the store, the callback address of the exchange. */
type FlowAuthenticateOptions = Omit<AuthenticateOptions, 'state'> & { state?: FlowState; callbackURL?: string };

function authenticateOptions(options: FlowAuthenticateOptions): AuthenticateOptions {
  return options as AuthenticateOptions;
}

export type FlowOutcome = { ok: true; result: FlowResult; carried: FlowState } | { ok: false; reason: FlowFailure };

/**
 * passport, its OAuth 2.0 strategy and Nest's wrapper of it (about 50 modules), loaded with the
 * first provider flow rather than at boot: an instance with no sign-in provider and no code host
 * never runs one.
 */
function passportModules() {
  /* eslint-disable @typescript-eslint/no-require-imports -- loaded on first use (see above); Node keeps them after */
  return {
    passport: require('passport') as typeof import('passport'),
    OAuth2Strategy: require('passport-oauth2') as typeof import('passport-oauth2'),
    PassportStrategy: (require('@nestjs/passport') as typeof import('@nestjs/passport')).PassportStrategy,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
}

/**
 * The passport-oauth2 strategies of the flows (authorization code, PKCE S256, state in a sealed
 * cookie), built at a flow's first use (an OpenID provider's endpoints need its discovery
 * document) under names of this application instance, so two Baton applications in one process
 * never share one.
 */
@Injectable()
export class ProviderStrategies implements OnModuleDestroy {
  private readonly logger = new Logger('sign-in');
  private readonly built = new Map<OAuthFlow, Promise<string>>();
  private readonly stores = new Map<OAuthFlow, SealedStateStore>();
  private readonly instance = randomUUID();
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly directory: ProviderDirectory,
  ) {
    this.box = sealerFor(config, 'oauth-state');
  }

  /**
   * Sends the browser to the provider, carrying `carried` to the callback. Answers the failure
   * when the provider's endpoints cannot be learnt (nothing was sent then).
   */
  async start(flow: OAuthFlow, req: Request, res: Response, carried: FlowState): Promise<FlowFailure | undefined> {
    let name: string;
    try {
      name = await this.strategy(flow);
    } catch (error) {
      return this.failed(flow, 'unreachable', error);
    }
    await new Promise<void>((resolve, reject) => {
      res.once('finish', () => resolve());
      passportModules().passport.authenticate(name, authenticateOptions({ session: false, state: carried }), (err: unknown) =>
        reject(err instanceof Error ? err : new Error(String(err))),
      )(req, res, reject);
    });
    return undefined;
  }

  /** Verifies the callback's state, exchanges its code (with the PKCE verifier) and reads who it is. */
  async finish(flow: OAuthFlow, req: Request, res: Response): Promise<FlowOutcome> {
    this.store(flow).clear(res);
    const providerError = typeof req.query.error === 'string' ? req.query.error : undefined;
    if (providerError) return this.refused(flow, providerError === 'access_denied' ? 'denied' : 'provider_error', `the provider answered ${providerError.slice(0, 60)}`);
    if (typeof req.query.code !== 'string' || req.query.code === '') return this.refused(flow, 'state', 'the callback carries no code');
    let name: string;
    try {
      name = await this.strategy(flow);
    } catch (error) {
      return this.refused(flow, 'unreachable', error);
    }
    // The code is exchanged with the callback address it arrived on (idpa has two).
    const callbackURL = this.config.baseUrl + req.path;
    return new Promise<FlowOutcome>((resolve) => {
      const done = (err: unknown, user: FlowResult | false, info: { state?: FlowState } | undefined) => {
        if (err) resolve(this.refused(flow, failureOf(err), err));
        else if (!user) resolve(this.refused(flow, 'state', 'the state was missing, expired or altered'));
        else resolve({ ok: true, result: user, carried: info?.state ?? {} });
      };
      passportModules().passport.authenticate(name, authenticateOptions({ session: false, callbackURL }), done)(req, res, (err: unknown) =>
        resolve(this.refused(flow, 'exchange', err)),
      );
    });
  }

  onModuleDestroy() {
    // Nothing to undo (nor to load) when no flow ran.
    if (this.built.size === 0) return;
    const { passport } = passportModules();
    for (const flow of this.built.keys()) passport.unuse(this.strategyName(flow));
  }

  /** Logs why a flow stopped (the error's name and message: never a token or a code) and answers the reason. */
  private failed(flow: OAuthFlow, reason: FlowFailure, cause: unknown): FlowFailure {
    const error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
    this.logger.warn({ msg: 'provider flow ended without signing in', flow, reason, error });
    return reason;
  }

  private refused(flow: OAuthFlow, reason: FlowFailure, cause: unknown): FlowOutcome {
    return { ok: false, reason: this.failed(flow, reason, cause) };
  }

  private store(flow: OAuthFlow): SealedStateStore {
    let store = this.stores.get(flow);
    if (!store) {
      store = new SealedStateStore(flow, this.box, this.config.baseUrl.startsWith('https:'));
      this.stores.set(flow, store);
    }
    return store;
  }

  private strategyName(flow: OAuthFlow): string {
    return `baton-${flow}-${this.instance}`;
  }

  private strategy(flow: OAuthFlow): Promise<string> {
    let built = this.built.get(flow);
    if (!built) {
      built = this.build(flow);
      this.built.set(flow, built);
      built.catch(() => this.built.delete(flow));
    }
    return built;
  }

  private async build(flow: OAuthFlow): Promise<string> {
    const setup = this.directory.setup(flow);
    const endpoints = await this.directory.endpoints(flow);
    const name = this.strategyName(flow);
    const loadProfile = (token: string) => profileOf(flow, endpoints, token);
    const options = {
      authorizationURL: endpoints.authorizationURL,
      tokenURL: endpoints.tokenURL,
      clientID: setup.clientID,
      clientSecret: setup.clientSecret,
      callbackURL: this.config.baseUrl + CALLBACK_PATHS[flow],
      scope: setup.scopes,
      state: true,
      pkce: true,
      store: this.store(flow) as unknown as OAuth2Strategy.StateStore,
      customHeaders: { 'user-agent': 'Baton' },
    };
    const { PassportStrategy, OAuth2Strategy: Strategy } = passportModules();
    class FlowStrategy extends PassportStrategy(Strategy, name, true) {
      constructor() {
        super(options);
      }

      override userProfile(accessToken: string, done: (err?: unknown, profile?: unknown) => void): void {
        loadProfile(accessToken).then((profile) => done(null, profile), done);
      }

      validate(accessToken: string, _refreshToken: string | undefined, params: unknown, profile: Omit<FlowResult, 'accessToken' | 'scopes'>): FlowResult {
        return { ...profile, accessToken, scopes: grantedScopes(params, setup.scopes) };
      }
    }
    new FlowStrategy();
    return name;
  }
}

/** Who the access token belongs to: userinfo for OpenID providers, the code host's /user (and /user/emails for sign-in). */
async function profileOf(flow: OAuthFlow, endpoints: ProviderEndpoints, token: string): Promise<Omit<FlowResult, 'accessToken' | 'scopes'>> {
  if (flow === 'idpa' || flow === 'idpc') return { identity: oidcIdentity(flow, await providerJson(endpoints.identityURL, token)) };
  const user = await providerJson(`${endpoints.identityURL}/user`, token);
  if (flow === 'repo') return { login: codehostAccount(user).login };
  return { identity: codehostIdentity(user, await providerJson(`${endpoints.identityURL}/user/emails`, token)) };
}

function failureOf(error: unknown): FlowFailure {
  if (error instanceof ProviderUnavailable) return 'unreachable';
  if (error instanceof UnusableIdentity) return 'provider_error';
  if (error instanceof passportModules().OAuth2Strategy.AuthorizationError) return 'provider_error';
  return 'exchange';
}
