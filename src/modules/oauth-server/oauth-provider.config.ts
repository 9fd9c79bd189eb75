import type { Adapter, Configuration, FindAccount, KoaContextWithOIDC } from 'oidc-provider' with { 'resolution-mode': 'import' };
import type * as OidcProvider from 'oidc-provider' with { 'resolution-mode': 'import' };
import { createHash } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { errorPage, PAGE_HEADERS } from './oauth-pages';
import { CONNECTOR_CLIENTS, INTERACTION_PATH, MCP_SCOPE, OAUTH_ROUTES } from './oauth-server.constants';
import { SigningKeys } from './oauth-signing-keys';

/** Authorization codes are exchanged at once by the client that asked for them. */
const AUTHORIZATION_CODE_S = 60;
/** How long a person has to sign in and answer a consent page. */
const INTERACTION_S = 30 * 60;
/** The server's own sign-in memory; Baton's web session decides who is signed in (see the consent page). */
const SESSION_S = 60 * 60;
/** A grant lives at most a year: then the person is asked again, whatever the refresh tokens say. */
const GRANT_S = 365 * 24 * 3600;
const ID_TOKEN_S = 60 * 60;

export interface ProviderDependencies {
  config: AppConfig;
  /** The issuer and the base of the MCP resource: APP_URL without a trailing slash. */
  issuer: string;
  keys: SigningKeys;
  adapter: (model: string) => Adapter;
  findAccount: FindAccount;
  errors: typeof OidcProvider.errors;
}

/**
 * oidc-provider's configuration for Baton: an OAuth 2.1 authorization server with one protected
 * resource, the MCP endpoint. Clients register themselves (RFC 7591): public ones (`none`), or
 * with a secret when they ask for one or name no method (RFC 7591's default); all must use PKCE
 * (S256); every access token is opaque, stored (so it can be revoked at once) and bound to the
 * MCP resource (RFC 8707). The device flow (RFC 8628) is on; its verification page is Baton's own
 * `/activate`. Login and consent are Baton's pages (`/oauth/interaction/<uid>`), and every
 * authorization asks the person again: no grant is reused silently.
 */
export function providerConfiguration(deps: ProviderDependencies): Configuration {
  const { config, issuer, errors } = deps;
  const mcpResource = `${issuer}/mcp`;
  const https = issuer.startsWith('https:');
  const cookieOptions = { httpOnly: true, sameSite: 'lax' as const, secure: https };
  return {
    adapter: deps.adapter,
    findAccount: deps.findAccount,
    jwks: deps.keys as Configuration['jwks'],
    // Baton's connectors: their device codes are made and redeemed by /auth/*-connect and /auth/*-poll only.
    clients: Object.values(CONNECTOR_CLIENTS).map((client) => ({ ...client, grant_types: [], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'none' })),
    cookies: {
      names: { session: 'baton_oauth_session', interaction: 'baton_oauth_interaction', resume: 'baton_oauth_resume' },
      keys: [cookieKey(config.sessionSecret)],
      long: cookieOptions,
      short: cookieOptions,
    },
    routes: { ...OAUTH_ROUTES },
    scopes: ['openid', 'offline_access', MCP_SCOPE],
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      application_type: 'native',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      id_token_signed_response_alg: 'RS256',
    },
    pkce: { required: () => true },
    // Public clients in browsers call the token, revocation and device endpoints; they carry no cookie there.
    clientBasedCORS: () => true,
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
    // A grant is reused only when the consent page just made it: every authorization asks the person.
    loadExistingGrant: async (ctx: KoaContextWithOIDC) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    ttl: {
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? config.oauthAccessTokenS,
      AuthorizationCode: AUTHORIZATION_CODE_S,
      DeviceCode: config.deviceCodeS,
      Grant: GRANT_S,
      IdToken: ID_TOKEN_S,
      Interaction: INTERACTION_S,
      RefreshToken: config.oauthRefreshTokenS,
      Session: SESSION_S,
    },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      revocation: { enabled: true, allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId },
      deviceFlow: { enabled: true, charset: 'base-20', mask: '****-****' },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => mcpResource,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, indicator) => {
          if (indicator !== mcpResource) throw new errors.InvalidTarget(`Baton issues tokens for one resource only: ${mcpResource}`);
          return { scope: MCP_SCOPE, audience: mcpResource, accessTokenTTL: config.oauthAccessTokenS, accessTokenFormat: 'opaque' };
        },
      },
    },
    discovery: { service_documentation: `${issuer}/mcp/quickstart` },
    renderError: async (ctx, out) => {
      ctx.set(PAGE_HEADERS);
      ctx.body = errorPage(out.error_description ?? out.error);
    },
  };
}

/** The key oidc-provider signs its cookies with, derived from SESSION_SECRET (not the secret itself). */
function cookieKey(sessionSecret: string): string {
  return createHash('sha256').update(`baton-oauth-cookies:${sessionSecret}`).digest('base64url');
}
