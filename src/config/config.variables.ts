import { clampedSetting, EXPORT_LIMITS, otlpEndpoint, otlpHeaders } from '../../libs/otel-export/settings';
import { boolean, connectionUrl, httpUrl, integer, list, oneOf, Parser, text } from './config.parsers';

export interface VariableSpec<T> {
  /** The variable read first. */
  name: string;
  /** Older or alternative names, read when `name` is unset. */
  aliases?: string[];
  description: string;
  /** Sensitive values are never logged, reported by GET /config, or echoed in errors. */
  sensitive: boolean;
  parse: Parser<T>;
  default?: T;
}

function variable<T>(spec: VariableSpec<T>): VariableSpec<T> {
  return spec;
}

export const DEV_SESSION_SECRET = 'baton-development-session-secret-do-not-use-in-production';

/**
 * Every environment variable Baton reads, with its default. Names and defaults
 * follow the service specification (sections 1, 5, 6 and 9).
 */
export const VARIABLES = {
  mode: variable({
    name: 'SERVICE_MODE',
    description: 'self-hosted (one local tenant, no auth) or hosted (multi-tenant, bearer tokens)',
    sensitive: false,
    parse: oneOf('self-hosted', 'hosted'),
    default: 'self-hosted' as 'self-hosted' | 'hosted',
  }),
  nodeEnv: variable({
    name: 'NODE_ENV',
    description: 'production enforces SESSION_SECRET and APP_URL',
    sensitive: false,
    parse: text,
    default: 'development',
  }),
  dbUrl: variable<string | undefined>({
    name: 'SERVICE_DB_URL',
    description: 'Postgres connection string; when set, Postgres is used instead of SQLite',
    sensitive: true,
    parse: connectionUrl('postgres', 'postgresql'),
  }),
  dbFile: variable<string | undefined>({
    name: 'SERVICE_DB',
    description: 'path of the SQLite file (default: service.db under SERVICE_DATA_DIR)',
    sensitive: false,
    parse: text,
  }),
  dataDir: variable({
    name: 'SERVICE_DATA_DIR',
    description: 'directory for data files (SQLite file, handoff files)',
    sensitive: false,
    parse: text,
    default: 'data',
  }),
  dbPoolSize: variable({
    name: 'SERVICE_DB_POOL_SIZE',
    description: 'connections in the one pool to the shared Postgres cluster, whatever the number of tenants',
    sensitive: false,
    parse: integer(1, 200),
    default: 10,
  }),
  dbStatementTimeoutSeconds: variable({
    name: 'SERVICE_DB_STATEMENT_TIMEOUT_S',
    description:
      'Postgres: the longest one statement of tenant work may run (statement_timeout); a server that has not answered 2 s after it is given up on and its connection dropped',
    sensitive: false,
    parse: integer(1, 600),
    default: 10,
  }),
  requestTimeoutSeconds: variable({
    name: 'SERVICE_REQUEST_TIMEOUT_S',
    description:
      'the deadline of one request: its database work is bounded to end by then, and a request still unanswered gets 503 DEADLINE_EXCEEDED; long-polls add their wait to it',
    sensitive: false,
    parse: integer(1, 300),
    default: 15,
  }),
  dbTenantShare: variable({
    name: 'SERVICE_DB_TENANT_SHARE',
    description:
      "hosted: the percentage of the shared pool's connections, and of its read connections, one tenant's work may hold at once; the rest of its work waits in its own line",
    sensitive: false,
    parse: integer(1, 100),
    default: 50,
  }),
  baseUrl: variable({
    name: 'APP_URL',
    aliases: ['SERVICE_BASE_URL'],
    description: 'public base URL used in OAuth callbacks, e-mails and MCP endpoint URLs',
    sensitive: false,
    parse: httpUrl,
    default: 'http://localhost:7878',
  }),
  port: variable({
    name: 'SERVICE_PORT',
    description: 'HTTP port of the dashboard and API',
    sensitive: false,
    parse: integer(0, 65535),
    default: 7878,
  }),
  host: variable({
    name: 'SERVICE_HOST',
    description: 'bind host',
    sensitive: false,
    parse: text,
    default: '127.0.0.1',
  }),
  allowedHosts: variable<string[]>({
    name: 'SERVICE_ALLOWED_HOSTS',
    description: 'extra Host names accepted by the MCP endpoints (DNS-rebinding protection), comma-separated',
    sensitive: false,
    parse: list,
    default: [],
  }),
  humanId: variable<string | undefined>({
    name: 'SERVICE_HUMAN_ID',
    description: 'default human identifier for task attribution',
    sensitive: false,
    parse: text,
  }),
  afterLoginUrl: variable({
    name: 'SERVICE_AFTER_LOGIN_URL',
    description: 'redirect target after a successful sign-in',
    sensitive: false,
    parse: text,
    default: '/dashboard',
  }),
  autoSummaryIntervalS: variable({
    name: 'SERVICE_AUTO_SUMMARY_INTERVAL',
    description: 'seconds between background auto-summary cycles',
    sensitive: false,
    parse: integer(1, 86400 * 7),
    default: 600,
  }),
  sitePassword: variable<string | undefined>({
    name: 'SITE_PASSWORD',
    description: 'when set, every route except /health and /demo needs the password',
    sensitive: true,
    parse: text,
  }),
  billingSecretKey: variable<string | undefined>({
    name: 'BILLING_SECRET_KEY',
    description: 'payment provider API secret',
    sensitive: true,
    parse: text,
  }),
  billingWebhookSecret: variable<string | undefined>({
    name: 'BILLING_WEBHOOK_SECRET',
    description: 'payment provider webhook signing secret',
    sensitive: true,
    parse: text,
  }),
  billingPaymentLink: variable<string | undefined>({
    name: 'BILLING_PAYMENT_LINK',
    description: 'payment-link URL shown as the upgrade button',
    sensitive: false,
    parse: httpUrl,
  }),
  emailApiKey: variable<string | undefined>({
    name: 'EMAIL_API_KEY',
    description: 'transactional e-mail key; when unset e-mail is skipped',
    sensitive: true,
    parse: text,
  }),
  fromEmail: variable<string | undefined>({
    name: 'SERVICE_FROM_EMAIL',
    description: 'sender address for outgoing e-mail',
    sensitive: false,
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
  version: variable<string | undefined>({
    name: 'SERVICE_VERSION',
    description: 'version reported by /health (default: package.json version)',
    sensitive: false,
    parse: text,
  }),
  gitSha: variable<string | undefined>({
    name: 'SERVICE_GIT_SHA',
    description: 'commit of the running build reported by /health (default: read from the checkout at start-up)',
    sensitive: false,
    parse: (raw: string) => {
      if (!/^[0-9a-f]{7,40}$/i.test(raw)) throw new Error('must be a hexadecimal commit id');
      return raw.toLowerCase();
    },
  }),
  cacheUrl: variable<string | undefined>({
    name: 'SERVICE_CACHE_URL',
    description: 'Redis URL for push wake-ups and cross-instance rate limits',
    sensitive: true,
    parse: connectionUrl('redis', 'rediss'),
  }),
  bodyLimitBytes: variable({
    name: 'SERVICE_BODY_LIMIT',
    description: 'largest accepted JSON request body, in bytes',
    sensitive: false,
    parse: integer(1024, 64 * 1024 * 1024),
    default: 1024 * 1024,
  }),
  logLevel: variable({
    name: 'SERVICE_LOG_LEVEL',
    description: 'lowest level written to the log',
    sensitive: false,
    parse: oneOf('debug', 'info', 'warn', 'error'),
    default: 'info' as 'debug' | 'info' | 'warn' | 'error',
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
      'how long an API token lookup is remembered, a resolved token and a refused one alike; a revocation, or a token issued, on another instance takes effect within this time',
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
  byodbPoolSize: variable({
    name: 'SERVICE_BYODB_POOL_SIZE',
    description: 'connections per customer-supplied (BYODB) database',
    sensitive: false,
    parse: integer(1, 20),
    default: 3,
  }),
  byodbMaxPools: variable({
    name: 'SERVICE_BYODB_MAX_POOLS',
    description: 'customer-supplied databases kept open at once; the least recently used is closed first',
    sensitive: false,
    parse: integer(1, 1000),
    default: 50,
  }),
  byodbAllowedHosts: variable({
    name: 'SERVICE_BYODB_ALLOWED_HOSTS',
    description:
      'hosted: comma-separated hosts, addresses or CIDR ranges a tenant may connect as its own database (BYODB) although they are loopback, private, link-local or otherwise internal; empty: only public addresses',
    sensitive: false,
    parse: list,
    default: [] as string[],
  }),
  outboundAllowedHosts: variable({
    name: 'SERVICE_OUTBOUND_ALLOWED_HOSTS',
    description:
      'hosted: comma-separated hosts, addresses or CIDR ranges a tenant-chosen HTTP target (notification URL, project OTLP endpoint) may use although they are internal; empty: only public addresses',
    sensitive: false,
    parse: list,
    default: [] as string[],
  }),
  fileLockTtlS: variable({
    name: 'SERVICE_FILE_LOCK_TTL_SECONDS',
    description: 'how long a file lock lasts unless renewed by claiming the file again',
    sensitive: false,
    parse: integer(60, 30 * 86400),
    default: 4 * 3600,
  }),
  sessionTimeoutS: variable({
    name: 'SERVICE_SESSION_TIMEOUT_SECONDS',
    description: 'a session silent (no heartbeat or call) for this long is closed by the sweeper',
    sensitive: false,
    parse: integer(60, 30 * 86400),
    default: 3600,
  }),
  sweepIntervalS: variable({
    name: 'SERVICE_SWEEP_INTERVAL_SECONDS',
    description: 'seconds between sweeps for silent sessions (0 turns the sweeper off)',
    sensitive: false,
    parse: integer(0, 86400),
    default: 60,
  }),
  pollIntervalMs: variable({
    name: 'SERVICE_POLL_INTERVAL_MS',
    description: 'how often a waiting receive_messages or HITL wait reads the database when push is not available',
    sensitive: false,
    parse: integer(50, 60_000),
    default: 1000,
  }),
  pushSafetyPollMs: variable({
    name: 'SERVICE_PUSH_SAFETY_POLL_MS',
    description: 'how often a waiter reads the database while push is live (a safety net for a lost wake-up)',
    sensitive: false,
    parse: integer(100, 600_000),
    default: 10_000,
  }),
  maxWaitS: variable({
    name: 'SERVICE_MAX_WAIT_SECONDS',
    description: 'cap on the wait of receive_messages and GET /hitl/{id}?wait= (tool calls time out after about a minute)',
    sensitive: false,
    parse: integer(1, 600),
    default: 50,
  }),
  pubsubPrefix: variable({
    name: 'SERVICE_PUBSUB_PREFIX',
    description: 'prefix of the Redis channels and keys used for push wake-ups, push budgets and refused-credential counters',
    sensitive: false,
    parse: (raw: string) => {
      if (!/^[A-Za-z0-9:_.-]{1,64}$/.test(raw)) throw new Error('must be 1 to 64 letters, digits or :_.-');
      return raw;
    },
    default: 'baton',
  }),
  pushBudgetWarning: variable({
    name: 'SERVICE_PUSH_BUDGET_WARNING',
    description: 'monthly publish commands of a tenant after which it gets a dashboard notice and an e-mail (tier 1)',
    sensitive: false,
    parse: integer(1, 1_000_000_000),
    default: 500_000,
  }),
  pushBudgetDisable: variable({
    name: 'SERVICE_PUSH_BUDGET_DISABLE',
    description: 'monthly publish commands of a tenant after which its push pauses until next month (tier 2)',
    sensitive: false,
    parse: integer(1, 1_000_000_000),
    default: 1_000_000,
  }),
  pushBudgetAdminAlert: variable({
    name: 'SERVICE_PUSH_BUDGET_ADMIN_ALERT',
    description: 'monthly publish commands of a tenant that raise an admin alert: the pause of tier 2 failed (tier 3)',
    sensitive: false,
    parse: integer(1, 1_000_000_000),
    default: 2_000_000,
  }),
  planCacheSeconds: variable({
    name: 'SERVICE_PLAN_CACHE_SECONDS',
    description: "how long a hosted tenant's plan (free or paid) is remembered; a change takes effect within this time",
    sensitive: false,
    parse: integer(0, 3600),
    default: 30,
  }),
  adminNtfyUrl: variable<string | undefined>({
    name: 'SERVICE_ADMIN_NTFY_URL',
    description: 'where operator alerts are posted (a push budget that passed its hard limit)',
    sensitive: false,
    parse: httpUrl,
  }),
  adminEmail: variable<string | undefined>({
    name: 'ADMIN_EMAIL',
    description: 'operator address for alerts',
    sensitive: false,
    parse: text,
  }),
  emailApiUrl: variable<string | undefined>({
    name: 'SERVICE_EMAIL_API_URL',
    description: "base URL of the e-mail API (default: the provider's public API)",
    sensitive: false,
    parse: httpUrl,
  }),
  notifyTimeoutMs: variable({
    name: 'SERVICE_NOTIFY_TIMEOUT_MS',
    description: 'deadline of one outbound notification attempt (webhook or e-mail); 3 attempts at most',
    sensitive: false,
    parse: integer(100, 60_000),
    default: 5000,
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
  aiLogOtelEnabled: variable({
    name: 'SERVICE_AI_LOG_OTEL_ENABLED',
    description: 'master switch of the AI-log OTLP export; off: the exporter library is not loaded and nothing is sent',
    sensitive: false,
    parse: boolean,
    default: false,
  }),
  aiLogOtelEndpoint: variable<string | undefined>({
    name: 'SERVICE_AI_LOG_OTEL_ENDPOINT',
    description: 'OTLP/HTTP logs endpoint of the AI-log export (falls back to OTEL_EXPORTER_OTLP_LOGS_ENDPOINT, OTEL_EXPORTER_OTLP_ENDPOINT + /v1/logs, then a project override)',
    sensitive: false,
    parse: otlpEndpoint,
  }),
  otelLogsEndpoint: variable<string | undefined>({
    name: 'OTEL_EXPORTER_OTLP_LOGS_ENDPOINT',
    description: 'standard OpenTelemetry logs endpoint, used by the AI-log export when SERVICE_AI_LOG_OTEL_ENDPOINT is unset',
    sensitive: false,
    parse: otlpEndpoint,
  }),
  otelEndpoint: variable<string | undefined>({
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    description: 'standard OpenTelemetry base endpoint; the AI-log export appends /v1/logs',
    sensitive: false,
    parse: otlpEndpoint,
  }),
  aiLogOtelHeaders: variable<Record<string, string> | undefined>({
    name: 'SERVICE_AI_LOG_OTEL_HEADERS',
    description: 'headers of the AI-log export, key=value pairs separated by commas, values percent-encoded; the only place its credential belongs',
    sensitive: true,
    parse: otlpHeaders,
  }),
  otelHeaders: variable<Record<string, string> | undefined>({
    name: 'OTEL_EXPORTER_OTLP_HEADERS',
    description: 'standard OpenTelemetry export headers, used when SERVICE_AI_LOG_OTEL_HEADERS is unset',
    sensitive: true,
    parse: otlpHeaders,
  }),
  aiLogOtelServiceName: variable<string | undefined>({
    name: 'SERVICE_AI_LOG_OTEL_SERVICE_NAME',
    description: 'resource service.name of exported AI-log records (falls back to OTEL_SERVICE_NAME, then "service")',
    sensitive: false,
    parse: text,
  }),
  otelServiceName: variable<string | undefined>({
    name: 'OTEL_SERVICE_NAME',
    description: 'standard OpenTelemetry service name, used when SERVICE_AI_LOG_OTEL_SERVICE_NAME is unset',
    sensitive: false,
    parse: text,
  }),
  aiLogOtelSinkHint: variable({
    name: 'SERVICE_AI_LOG_OTEL_TRACECOLLECTOR_COMPAT',
    description: 'informational: adds resource attribute service.otel_sink_hint to exported records; the wire protocol is unchanged',
    sensitive: false,
    parse: boolean,
    default: false,
  }),
  aiLogOtelBatchSize: variable({
    name: EXPORT_LIMITS.batchSize.variable,
    description: 'AI-log events fetched per export pass (clamped 1 to 1000)',
    sensitive: false,
    parse: clampedSetting(EXPORT_LIMITS.batchSize),
    default: EXPORT_LIMITS.batchSize.default,
  }),
  aiLogOtelChunkSize: variable({
    name: EXPORT_LIMITS.chunkSize.variable,
    description: 'AI-log events per OTLP request (clamped 1 to 200, never above the batch size)',
    sensitive: false,
    parse: clampedSetting(EXPORT_LIMITS.chunkSize),
    default: EXPORT_LIMITS.chunkSize.default,
  }),
  aiLogOtelMaxRetries: variable({
    name: EXPORT_LIMITS.maxRetries.variable,
    description: 'retries of a refused AI-log export chunk (clamped 0 to 10)',
    sensitive: false,
    parse: clampedSetting(EXPORT_LIMITS.maxRetries),
    default: EXPORT_LIMITS.maxRetries.default,
  }),
  aiLogOtelBackoffBaseS: variable({
    name: EXPORT_LIMITS.backoffBaseS.variable,
    description: 'base of the exponential, jittered wait between AI-log export retries, in seconds (clamped 0.05 to 10)',
    sensitive: false,
    parse: clampedSetting(EXPORT_LIMITS.backoffBaseS),
    default: EXPORT_LIMITS.backoffBaseS.default,
  }),
  aiLogOtelTimeoutS: variable({
    name: EXPORT_LIMITS.timeoutS.variable,
    description: 'limit of one AI-log export HTTP attempt, in seconds (clamped 1 to 30)',
    sensitive: false,
    parse: clampedSetting(EXPORT_LIMITS.timeoutS),
    default: EXPORT_LIMITS.timeoutS.default,
  }),
  aiLogOtelTotalDeadlineS: variable({
    name: EXPORT_LIMITS.totalDeadlineS.variable,
    description: 'limit of one AI-log export pass, in seconds, after which it returns a degraded result (clamped 1 to 60)',
    sensitive: false,
    parse: clampedSetting(EXPORT_LIMITS.totalDeadlineS),
    default: EXPORT_LIMITS.totalDeadlineS.default,
  }),
  contextBlockMaxBytes: variable({
    name: 'SERVICE_CONTEXT_BLOCK_MAX_BYTES',
    description: 'largest context block, in bytes of UTF-8; the newest and most important lines of each section are kept',
    sensitive: false,
    parse: integer(2048, 256 * 1024),
    default: 8192,
  }),
  handoffTtlS: variable({
    name: 'SERVICE_HANDOFF_TTL_SECONDS',
    description: 'how long a generated handoff stays valid for accept_handoff and for starting a session from its token',
    sensitive: false,
    parse: integer(3600, 90 * 86400),
    default: 3 * 86400,
  }),
} as const;

export type Variables = typeof VARIABLES;
