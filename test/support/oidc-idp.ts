import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AccessToken, Adapter, AdapterPayload, Configuration, default as ProviderClass, ErrorOut, KoaContextWithOIDC } from 'oidc-provider';

/** A person the test provider knows. `login` is what the code-host stand-in answers as the account name. */
export interface IdpUser {
  sub: string;
  email: string | null;
  email_verified?: boolean;
  name?: string;
  login?: string;
}

/** What the next interaction does: sign the given user in and approve, or refuse as a person pressing "deny" would. */
export type IdpDecision = { signIn: string } | { deny: true };

export interface OidcIdpOptions {
  /** Redirect URIs the one registered client may use. */
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  /** Scopes beyond the OpenID ones the provider grants (a code host's `repo`, `user:email`...). */
  extraScopes?: string[];
  users?: IdpUser[];
  /** Where the provider serves its endpoints, when not oidc-provider's own (`/auth`, `/token`...): a code host's `/login/oauth/authorize`. */
  routes?: { authorization?: string; token?: string };
}

/**
 * A real OpenID Connect provider (oidc-provider 9) on a loopback port, for suites that sign in
 * through it: one registered confidential client (client_secret_post, PKCE), a user store the
 * test fills, and interaction routes that decide without a browser: the next authorization
 * request signs in `decide({ signIn: sub })`'s user and grants every scope asked for, or is
 * refused with access_denied. Scopes of a code host (`read:user`, `user:email`, `repo`) can be
 * added, so the same provider serves as a code host's OAuth server; `tokenInfo` tells its API
 * stand-in who an access token belongs to.
 */
export class OidcIdp {
  readonly users = new Map<string, IdpUser>();
  /** How many interactions were completed (each authorization request that reached the provider's pages). */
  interactions = 0;
  private decision: IdpDecision | undefined;

  private constructor(
    private readonly server: Server,
    readonly provider: ProviderClass,
    readonly issuer: string,
    readonly clientId: string,
    readonly clientSecret: string,
  ) {}

  static async start(options: OidcIdpOptions): Promise<OidcIdp> {
    const { default: Provider } = await import('oidc-provider');
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const clientId = options.clientId ?? `client-${randomBytes(4).toString('hex')}`;
    const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
    let idp!: OidcIdp;
    const provider = new Provider(
      issuer,
      idpConfiguration(options, clientId, clientSecret, (sub) => idp.users.get(sub)),
    );
    idp = new OidcIdp(server, provider, issuer, clientId, clientSecret);
    for (const user of options.users ?? []) idp.users.set(user.sub, user);
    const callback = provider.callback();
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      if (req.url?.startsWith('/interaction/')) idp.interact(req, res).catch((error: Error) => fail(res, error));
      else callback(req, res);
    });
    return idp;
  }

  /** The provider's discovery document address. */
  get discoveryUrl(): string {
    return `${this.issuer}/.well-known/openid-configuration`;
  }

  /** Adds (or replaces) a user. */
  addUser(user: IdpUser): IdpUser {
    this.users.set(user.sub, user);
    return user;
  }

  /** What the next interactions do, until changed. */
  decide(decision: IdpDecision): void {
    this.decision = decision;
  }

  /** Who an access token this provider issued belongs to, and its scopes; undefined when unknown, expired or revoked. */
  async tokenInfo(token: string): Promise<{ user: IdpUser; scopes: Set<string> } | undefined> {
    const found: AccessToken | undefined = await this.provider.AccessToken.find(token);
    if (!found || found.isExpired || !found.accountId) return undefined;
    const user = this.users.get(found.accountId);
    return user ? { user, scopes: found.scopes } : undefined;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  /** The provider's login and consent pages, decided by `decision` instead of a person. */
  private async interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await this.provider.interactionDetails(req, res);
    const decision = this.decision;
    if (!decision) throw new Error('the test provider was not told what to decide (idp.decide)');
    this.interactions += 1;
    if ('deny' in decision) {
      await this.provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'the person refused' }, { mergeWithLastSubmission: false });
      return;
    }
    if (details.prompt.name === 'login') {
      if (!this.users.has(decision.signIn)) throw new Error(`no test user ${decision.signIn}`);
      await this.provider.interactionFinished(req, res, { login: { accountId: decision.signIn } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = new this.provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? ''));
    const grantId = await grant.save();
    await this.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
}

function idpConfiguration(options: OidcIdpOptions, clientId: string, clientSecret: string, user: (sub: string) => IdpUser | undefined): Configuration {
  const extra = options.extraScopes ?? [];
  return {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    // Every scope maps to claims, so code-host scopes are granted like OpenID ones (no resource server needed).
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      ...Object.fromEntries(extra.map((scope) => [scope, []])),
    },
    scopes: ['openid', 'offline_access', ...extra],
    pkce: { required: () => true },
    ...(options.routes ? { routes: options.routes } : {}),
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    jwks: { keys: [generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' })] },
    adapter: memoryAdapter(),
    // Plain text, so a test can read why the provider refused.
    renderError: (ctx: KoaContextWithOIDC, out: ErrorOut) => {
      ctx.type = 'text/plain';
      ctx.body = Object.entries(out)
        .map(([key, value]) => `${key}: ${String(value)}`)
        .join('\n');
    },
    ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600 },
    findAccount: (_ctx: KoaContextWithOIDC, sub: string) => {
      const found = user(sub);
      if (!found) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: found.email ?? undefined, email_verified: found.email === null ? undefined : (found.email_verified ?? true), name: found.name }),
      };
    },
  };
}

/** oidc-provider's storage, in memory and of this provider alone. */
function memoryAdapter(): (model: string) => Adapter {
  const rows = new Map<string, AdapterPayload>();
  return (model: string) => {
    const key = (id: string) => `${model}:${id}`;
    const where = (test: (p: AdapterPayload) => boolean) => [...rows.entries()].find(([k, p]) => k.startsWith(`${model}:`) && test(p))?.[1];
    return {
      upsert: async (id, payload) => void rows.set(key(id), payload),
      find: async (id) => rows.get(key(id)),
      findByUid: async (uid) => where((p) => p.uid === uid),
      findByUserCode: async (userCode) => where((p) => p.userCode === userCode),
      consume: async (id) => {
        const found = rows.get(key(id));
        if (found) found.consumed = Math.floor(Date.now() / 1000);
      },
      destroy: async (id) => void rows.delete(key(id)),
      revokeByGrantId: async (grantId) => {
        for (const [k, p] of rows) if (p.grantId === grantId) rows.delete(k);
      },
    };
  };
}

function fail(res: ServerResponse, error: Error): void {
  res.statusCode = 500;
  res.setHeader('content-type', 'text/plain');
  res.end(`test provider interaction failed: ${error.message}`);
}

/**
 * A loopback stand-in for a code host's REST API (GitHub's shape): `GET /user` answers the
 * account (`id`, `login`, `name`, `email`) and `GET /user/emails` its addresses (`email`,
 * `primary`, `verified`, and needs the `user:email` scope), each only for a bearer access token
 * the provider issued and still holds. `requests` records what was asked, with whose token.
 */
export class CodehostApi {
  /** Every request: its path, and the bearer token when the provider knew it. */
  readonly requests: { path: string; token: string | undefined }[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(idp: OidcIdp): Promise<CodehostApi> {
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const api = new CodehostApi(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => {
      api.answer(idp, req, res).catch((error: Error) => fail(res, error));
    });
    return api;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }

  private async answer(idp: OidcIdp, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const token = /^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const info = token ? await idp.tokenInfo(token) : undefined;
    const path = (req.url ?? '/').split('?')[0];
    this.requests.push({ path, token: info ? token : undefined });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (!info) return send(401, { message: 'Bad credentials' });
    const { user, scopes } = info;
    const scopeHeader = { 'x-oauth-scopes': [...scopes].join(', ') };
    if (path === '/user') return send(200, { id: numericId(user.sub), login: user.login ?? user.sub, name: user.name ?? null, email: null }, scopeHeader);
    if (path === '/user/emails') {
      if (!scopes.has('user:email')) return send(404, { message: 'Not Found' }, scopeHeader);
      return send(200, user.email === null ? [] : [{ email: user.email, primary: true, verified: user.email_verified ?? true, visibility: null }], scopeHeader);
    }
    return send(404, { message: 'Not Found' });
  }
}

/** A code host's numeric account id, stable for a subject. */
function numericId(sub: string): number {
  let id = 7;
  for (const char of sub) id = (id * 31 + char.charCodeAt(0)) % 2_147_483_647;
  return id;
}
