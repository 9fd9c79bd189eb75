/** The one protected resource Baton issues tokens for: its MCP endpoint, under APP_URL. */
export const MCP_RESOURCE_PATH = '/mcp';

/** The scope an MCP client asks for: the whole workspace, over MCP and the REST API alike. */
export const MCP_SCOPE = 'mcp';

/** Where the authorization server's endpoints live (oidc-provider `routes`; each is also listed in OAUTH_PATHS). */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  device_authorization: '/oauth/device',
  code_verification: '/activate',
  jwks: '/oauth/jwks',
  revocation: '/oauth/revoke',
} as const;

/** The consent page of one authorization request (`/oauth/interaction/<uid>`). */
export const INTERACTION_PATH = '/oauth/interaction';

/**
 * Requests handed to oidc-provider: its endpoints and its discovery documents. `/activate` (code
 * verification) is not among them: Baton serves that page itself (DeviceActivationController).
 */
export const OAUTH_PATHS = /^\/(?:oauth\/(?:authorize(?:\/[\w-]+)?|token|register|device|jwks|revoke)|\.well-known\/(?:openid-configuration|oauth-authorization-server))$/;

/** Baton's own clients of the device flow: the tunnel connector and the assistant hooks installer. */
export const CONNECTOR_CLIENTS = {
  tunnel: { client_id: 'baton-tunnel', client_name: 'Baton tunnel connector' },
  hooks: { client_id: 'baton-hooks', client_name: 'Baton assistant hooks' },
} as const;

export type ConnectorKind = keyof typeof CONNECTOR_CLIENTS;

/** Where a connector starts its device sign-in. */
export const CONNECTOR_STARTS = new Set(['/auth/tunnel-connect', '/auth/hooks-connect']);
