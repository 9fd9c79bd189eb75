import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Account, KoaContextWithOIDC } from 'oidc-provider' with { 'resolution-mode': 'import' };
import type Provider from 'oidc-provider' with { 'resolution-mode': 'import' };
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { toErrorResponse } from '../../common/errors/error-response';
import { sealerFor } from '../../common/sealer';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantResolver } from '../tenants/tenant-resolver.service';
import { providerConfiguration } from './oauth-provider.config';
import { OAuthServerError } from './oauth-server.errors';
import { MCP_RESOURCE_PATH, OAUTH_ROUTES } from './oauth-server.constants';
import { loadSigningKeys } from './oauth-signing-keys';
import { OAuthStore } from './oauth-store';
import { parseSubject } from './oauth-subject.util';

/** A request's context in the provider: `oidc` is there once one of its routes took the request. */
type ProviderContext = Omit<KoaContextWithOIDC, 'oidc'> & { oidc?: KoaContextWithOIDC['oidc'] };

/** How often expired records are swept from the store (any instance may; the delete is idempotent). */
const SWEEP_EVERY_MS = 10 * 60_000;

/**
 * Baton's OAuth 2.1 authorization server (hosted only): oidc-provider, created once at start
 * with its storage and signing keys in the control plane, and a few additions of Baton's own:
 * OAuth error bodies also carry `detail`; the device authorization answer carries `interval`
 * and points at APP_URL/activate; a device code polled sooner than that interval answers
 * `slow_down` (RFC 8628 §3.5), which oidc-provider leaves to the host.
 */
@Injectable()
export class OAuthServer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('oauth');
  private instance: Provider | undefined;
  private handler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;
  private sweeper: NodeJS.Timeout | undefined;
  readonly store: OAuthStore;
  /** APP_URL without a trailing slash: the issuer. */
  readonly issuer: string;
  /** The one protected resource: APP_URL + /mcp. */
  readonly mcpResource: string;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    resolver: TenantResolver,
  ) {
    this.issuer = config.baseUrl.replace(/\/+$/, '');
    this.mcpResource = `${this.issuer}${MCP_RESOURCE_PATH}`;
    this.store = new OAuthStore(source, sealerFor(config, 'oauth-payload'), (hash) => resolver.forgetToken(hash));
  }

  async onModuleInit(): Promise<void> {
    if (!this.config.isHosted) return;
    const oidc = await import('oidc-provider');
    const keys = await loadSigningKeys(this.source, sealerFor(this.config, 'oauth-signing-keys'));
    const provider = new oidc.default(
      this.issuer,
      providerConfiguration({
        config: this.config,
        issuer: this.issuer,
        keys,
        adapter: (model) => this.store.adapterFor(model),
        findAccount: (_ctx, subject) => this.findAccount(subject),
        errors: oidc.errors,
      }),
    );
    // Hosted Baton behind a TLS proxy: the proxy's X-Forwarded-Proto says the request was secure.
    provider.proxy = this.issuer.startsWith('https:');
    provider.use((ctx, next) => this.withDetail(ctx as ProviderContext, next));
    provider.use((ctx, next) => this.deviceFlowAdditions(ctx as ProviderContext, next));
    provider.on('server_error', (_ctx: KoaContextWithOIDC, error: Error) => {
      this.logger.error({ msg: 'unexpected error in the OAuth server', error_id: randomUUID(), error: error.message, stack: error.stack });
    });
    this.instance = provider;
    this.handler = provider.callback();
    this.sweeper = setInterval(() => void this.sweep(), SWEEP_EVERY_MS).unref();
  }

  onApplicationShutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /** Self-hosted Baton has no authorization server: its routes answer 404. */
  requireHosted(): void {
    if (!this.config.isHosted) throw OAuthServerError.notHosted();
  }

  /** The provider; only a hosted instance has one. */
  get provider(): Provider {
    if (!this.instance) throw new Error('the OAuth server runs only in hosted mode, after start-up');
    return this.instance;
  }

  /** Hands a request to the provider's own endpoints. */
  handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.handler) throw new Error('the OAuth server runs only in hosted mode, after start-up');
    return this.handler(req, res);
  }

  /**
   * A grant's subject (a person in a workspace) still stands while the workspace is active and
   * the person still a member of it: otherwise no token is issued or refreshed for it.
   */
  private async findAccount(subject: string): Promise<Account | undefined> {
    const parsed = parseSubject(subject);
    if (!parsed) return undefined;
    const rows: unknown[] = await this.source.query(
      `SELECT 1 FROM control.tenants t JOIN control.memberships m ON m.tenant_id = t.id
        WHERE t.id = $1 AND t.status = 'active' AND m.account_id = $2 AND m.status = 'active'`,
      [parsed.tenantId, parsed.accountId],
    );
    if (rows.length === 0) return undefined;
    return { accountId: subject, claims: () => ({ sub: subject }) };
  }

  /**
   * OAuth error bodies (`error`, `error_description`) also carry Baton's `detail`; an error that
   * escapes the provider (one of Baton's additions failing) is answered as Baton answers any
   * unexpected error, 500 (503 while the database is unavailable) with an `error_id`, not by Koa.
   */
  private async withDetail(ctx: ProviderContext, next: () => Promise<void>): Promise<void> {
    try {
      await next();
    } catch (error) {
      const { status, body, unexpected } = toErrorResponse(error);
      if (unexpected) this.logger.error({ msg: 'unexpected error in the OAuth server', error_id: body.error_id, stack: unexpected.stack });
      ctx.status = status;
      ctx.body = { error: 'server_error', error_description: body.detail, ...body };
      return;
    }
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.status < 400 || !body || typeof body !== 'object' || typeof body.error !== 'string' || 'detail' in body) return;
    ctx.body = { ...body, detail: typeof body.error_description === 'string' ? body.error_description : body.error };
  }

  private async deviceFlowAdditions(ctx: ProviderContext, next: () => Promise<void>): Promise<void> {
    await next();
    if (ctx.method !== 'POST') return;
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.path === OAUTH_ROUTES.device_authorization && ctx.status === 200 && typeof body?.user_code === 'string') {
      const verification = `${this.issuer}${OAUTH_ROUTES.code_verification}`;
      ctx.body = {
        ...body,
        verification_uri: verification,
        verification_uri_complete: `${verification}?user_code=${encodeURIComponent(body.user_code)}`,
        interval: this.config.devicePollIntervalS,
      };
    } else if (ctx.path === OAUTH_ROUTES.token && body?.error === 'authorization_pending') {
      const deviceCode = ctx.oidc?.params?.device_code;
      if (typeof deviceCode !== 'string') return;
      if ((await this.store.pollDeviceCode(deviceCode, this.config.devicePollIntervalS)) === 'too-soon') {
        ctx.body = { error: 'slow_down', error_description: `poll at most once every ${this.config.devicePollIntervalS} seconds (add 5 seconds to your interval)` };
      }
    }
  }

  private async sweep(): Promise<void> {
    try {
      await this.store.sweep();
    } catch (error) {
      this.logger.warn({ msg: 'sweeping expired OAuth records failed; the next sweep tries again', error: (error as Error).message });
    }
  }
}
