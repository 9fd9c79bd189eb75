import { boolean, httpUrl, integer, list, oneOf, text } from '../config.parsers';
import { variable } from './variable';

/** The process: mode, where it listens, what it reports about itself, request size and logging. */
export const SERVER_VARIABLES = {
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
  dashboardDir: variable<string | undefined>({
    name: 'SERVICE_DASHBOARD_DIR',
    description: 'folder of the built browser dashboard served at /dashboard (default: apps/dashboard/dist of the checkout)',
    sensitive: false,
    parse: text,
  }),
  autoSummaryIntervalS: variable({
    name: 'SERVICE_AUTO_SUMMARY_INTERVAL',
    description: 'seconds between background auto-summary cycles',
    sensitive: false,
    parse: integer(1, 86400 * 7),
    default: 600,
  }),
  drainSeconds: variable({
    name: 'SERVICE_DRAIN_SECONDS',
    description:
      "on SIGTERM (or an admin restart): how long requests in flight may take to finish once new ones are refused; waits answer at once, streams and WebSockets are ended. Keep it under the orchestrator's grace period (Kubernetes: 30 s)",
    sensitive: false,
    parse: integer(1, 600),
    default: 20,
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
  bodyLimitBytes: variable({
    name: 'SERVICE_BODY_LIMIT',
    description: 'largest accepted JSON request body, in bytes',
    sensitive: false,
    parse: integer(1024, 64 * 1024 * 1024),
    default: 1024 * 1024,
  }),
  accessLog: variable({
    name: 'SERVICE_ACCESS_LOG',
    description:
      'write one log line per answered request (method, route, path without query, status, time, request id); health probes and metric scrapes that succeed are left out',
    sensitive: false,
    parse: boolean,
    default: true,
  }),
  metricsToken: variable<string | undefined>({
    name: 'SERVICE_METRICS_TOKEN',
    description: 'when set, GET /metrics asks for it as a bearer token (Prometheus: authorization.credentials); unset, /metrics is open to anyone who reaches the port',
    sensitive: true,
    parse: text,
  }),
  otlpTracesEndpoint: variable<string | undefined>({
    name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
    description: 'OpenTelemetry: the OTLP/HTTP URL that receives traces (one server span per request); unset with OTEL_EXPORTER_OTLP_ENDPOINT unset, no trace is made',
    sensitive: false,
    parse: httpUrl,
  }),
  otlpEndpoint: variable<string | undefined>({
    name: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    description: 'OpenTelemetry: the base OTLP/HTTP URL; traces go to its /v1/traces unless OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is set',
    sensitive: false,
    parse: httpUrl,
  }),
  otelServiceName: variable({
    name: 'OTEL_SERVICE_NAME',
    description: 'OpenTelemetry: the service.name of the traces',
    sensitive: false,
    parse: text,
    default: 'baton',
  }),
  logLevel: variable({
    name: 'SERVICE_LOG_LEVEL',
    description: 'lowest level written to the log',
    sensitive: false,
    parse: oneOf('debug', 'info', 'warn', 'error'),
    default: 'info' as 'debug' | 'info' | 'warn' | 'error',
  }),
} as const;
