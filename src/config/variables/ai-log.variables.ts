import { clampedSetting, EXPORT_LIMITS, otlpEndpoint, otlpHeaders } from '../../../libs/otel-export/settings';
import { boolean, text } from '../config.parsers';
import { variable } from './variable';

/** The AI-log OTLP export, with the standard OpenTelemetry variables it falls back to. */
export const AI_LOG_VARIABLES = {
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
} as const;
