import { Inject, Injectable, Logger } from '@nestjs/common';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { clientKey } from '../../common/rate-limit/auth-failure-limiter';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { OAuthServerError } from './oauth-server.errors';
import { CONNECTOR_STARTS, OAUTH_PATHS, OAUTH_ROUTES } from './oauth-server.constants';
import { OAuthServer } from './oauth-server.service';

const HOUR_MS = 3600_000;

type AnonymousStart = 'register' | 'device';

/** Requests anyone may send that make the server remember something: a registration, a device sign-in started. */
function anonymousStart(req: Request): AnonymousStart | undefined {
  if (req.method === 'POST' && req.path === OAUTH_ROUTES.registration) return 'register';
  if (req.method === 'POST' && req.path === OAUTH_ROUTES.device_authorization) return 'device';
  if (CONNECTOR_STARTS.has(req.path) && (req.method === 'GET' || req.method === 'POST')) return 'device';
  return undefined;
}

/**
 * The authorization server's front door, in Express before any body parser: oidc-provider
 * reads its own bodies (forms and JSON). Requests for its endpoints and discovery documents go
 * to it; Baton's own OAuth pages (consent, /activate, protected-resource metadata) go on to
 * their controllers. Self-hosted, the provider's paths answer 404 with a detail here, Baton's
 * own after their input is validated (OAuthServer.requireHosted).
 * Registration and device sign-ins are open, so each client address may register so many clients,
 * and start so many device sign-ins, an hour (SERVICE_OAUTH_REGISTRATION_LIMIT each).
 */
@Injectable()
export class OAuthRoutes {
  private readonly logger = new Logger('oauth');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
    private readonly server: OAuthServer,
  ) {}

  middleware(): RequestHandler {
    return (req, res, next) => {
      const limited = this.config.isHosted ? anonymousStart(req) : undefined;
      // Every other request passes straight on, without a promise of its own.
      if (!limited && !OAUTH_PATHS.test(req.path)) return next();
      void this.route(limited, req, res, next).catch(next);
    };
  }

  private async route(limited: AnonymousStart | undefined, req: Request, res: Response, next: NextFunction): Promise<void> {
    if (limited && (await this.overLimit(limited, req, res))) return;
    if (!OAUTH_PATHS.test(req.path)) return next();
    if (!this.config.isHosted) {
      const { detail, code } = OAuthServerError.notHosted();
      res.status(404).json({ detail, code });
      return;
    }
    await this.server.handle(req, res);
  }

  /** Counts an anonymous start against the client's address; true (and answered 429) past the hourly limit. */
  private async overLimit(what: AnonymousStart, req: Request, res: Response): Promise<boolean> {
    const key = `${this.config.pubsubPrefix}:oauth-${what}:${clientKey(req.ip)}`;
    let retryAfter = 0;
    try {
      const record = await this.storage.increment(key, HOUR_MS, this.config.oauthRegistrationLimit, HOUR_MS, `oauth-${what}`);
      if (record.isBlocked) retryAfter = Math.max(1, record.timeToBlockExpire);
    } catch (error) {
      // The storage falls back to memory on its own; anything else lets the request through.
      this.logger.warn({ msg: 'an OAuth start could not be counted against its limit', error: (error as Error).message });
    }
    if (retryAfter === 0) return false;
    const detail = `too many ${what === 'register' ? 'OAuth clients registered' : 'device sign-ins started'} from this address: at most ${this.config.oauthRegistrationLimit} an hour; retry later`;
    res.status(429).set('Retry-After', String(retryAfter)).json({ error: 'temporarily_unavailable', error_description: detail, detail });
    return true;
  }
}
