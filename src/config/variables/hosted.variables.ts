import { integer, list, text } from '../config.parsers';
import { DEV_SESSION_SECRET, variable } from './variable';

/** Hosted mode and access: secrets, tokens, rate limits, outbound targets and operator settings. */
export const HOSTED_VARIABLES = {
  sitePassword: variable<string | undefined>({
    name: 'SITE_PASSWORD',
    description: 'when set, every route except /health and /demo needs the password',
    sensitive: true,
    parse: text,
  }),
  sessionSecret: variable({
    name: 'SESSION_SECRET',
    aliases: ['SERVICE_SESSION_SECRET'],
    description: 'secret that signs session cookies and derives the key for stored connection strings',
    sensitive: true,
    parse: (raw: string) => {
      if (raw.length < 16) throw new Error('must be at least 16 characters long');
      return raw;
    },
    default: DEV_SESSION_SECRET,
  }),
  mcpRateLimit: variable({
    name: 'SERVICE_MCP_RATE_LIMIT',
    description: 'MCP calls (JSON-RPC messages, each of a batch counted) allowed per minute per token in hosted mode, over /mcp and /mcp/sse together',
    sensitive: false,
    parse: integer(1, 1_000_000),
    default: 100,
  }),
  tokenCacheSeconds: variable({
    name: 'SERVICE_TOKEN_CACHE_SECONDS',
    description:
      "how long an API token lookup is remembered, a resolved token and a refused one alike; a revocation, or a token issued, on another instance takes effect within this time; npm run tenant:move drops a moved tenant's old schema this long (plus 2 s) after the switch, so run it with the instances' value",
    sensitive: false,
    parse: integer(0, 300),
    default: 5,
  }),
  authFailureLimit: variable({
    name: 'SERVICE_AUTH_FAILURE_LIMIT',
    description:
      'hosted: refused credentials (a wrong, revoked or malformed bearer token) one client address may present per window; after that its refusals answer 429 until the window passes, while a valid token still gets in',
    sensitive: false,
    parse: integer(1, 1_000_000),
    default: 10,
  }),
  authFailureWindowS: variable({
    name: 'SERVICE_AUTH_FAILURE_WINDOW_SECONDS',
    description: 'hosted: the window of SERVICE_AUTH_FAILURE_LIMIT, and how long a client that passed it is answered 429',
    sensitive: false,
    parse: integer(1, 86_400),
    default: 60,
  }),
  outboundAllowedHosts: variable({
    name: 'SERVICE_OUTBOUND_ALLOWED_HOSTS',
    description:
      'hosted: comma-separated hosts, addresses or CIDR ranges a tenant-chosen HTTP target (notification URL, project OTLP endpoint) may use although they are internal; empty: only public addresses',
    sensitive: false,
    parse: list,
    default: [] as string[],
  }),
  planCacheSeconds: variable({
    name: 'SERVICE_PLAN_CACHE_SECONDS',
    description: "how long a hosted tenant's plan (free or paid) is remembered; a change takes effect within this time",
    sensitive: false,
    parse: integer(0, 3600),
    default: 30,
  }),
  operatorTenantId: variable<string | undefined>({
    name: 'SERVICE_OPERATOR_TENANT_ID',
    description: "hosted: the operator's own tenant, whose API tokens may author hosted_default profile layers",
    sensitive: false,
    parse: (raw: string) => {
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw.trim())) throw new Error('must be a tenant id (a UUID)');
      return raw.trim().toLowerCase();
    },
  }),
  profileDefaultsCacheS: variable({
    name: 'SERVICE_PROFILE_DEFAULTS_CACHE_SECONDS',
    description: 'hosted: how long an instance reuses its copy of the hosted_default profile layers; a change made on another instance shows within this time',
    sensitive: false,
    parse: integer(0, 3600),
    default: 5,
  }),
} as const;
