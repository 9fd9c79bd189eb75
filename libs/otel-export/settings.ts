import { findSecret, redactSecrets } from '../secrets';

/** The numeric settings of an export pass (service spec §8). */
export interface ExportNumbers {
  /** Events fetched per pass. */
  batchSize: number;
  /** Events per HTTP POST; never above batchSize. */
  chunkSize: number;
  /** Retries per chunk after its first attempt. */
  maxRetries: number;
  /** Base of the exponential backoff between retries, in seconds. */
  backoffBaseS: number;
  /** Limit of one HTTP attempt, in seconds. */
  timeoutS: number;
  /** Limit of one whole pass, in seconds; past it the pass returns a degraded result. */
  totalDeadlineS: number;
}

export interface NumberLimit {
  variable: string;
  default: number;
  min: number;
  max: number;
  integer: boolean;
}

/** Defaults and bounds of §8, with the variable that sets each. */
export const EXPORT_LIMITS: Record<keyof ExportNumbers, NumberLimit> = {
  batchSize: { variable: 'SERVICE_AI_LOG_OTEL_BATCH_SIZE', default: 200, min: 1, max: 1000, integer: true },
  chunkSize: { variable: 'SERVICE_AI_LOG_OTEL_CHUNK_SIZE', default: 50, min: 1, max: 200, integer: true },
  maxRetries: { variable: 'SERVICE_AI_LOG_OTEL_MAX_RETRIES', default: 3, min: 0, max: 10, integer: true },
  backoffBaseS: { variable: 'SERVICE_AI_LOG_OTEL_BACKOFF_BASE_S', default: 0.5, min: 0.05, max: 10, integer: false },
  timeoutS: { variable: 'SERVICE_AI_LOG_OTEL_TIMEOUT_S', default: 5, min: 1, max: 30, integer: false },
  totalDeadlineS: { variable: 'SERVICE_AI_LOG_OTEL_TOTAL_DEADLINE_S', default: 20, min: 1, max: 60, integer: false },
};

/** `value` brought inside the bounds of `limit`. */
export function clamp(value: number, limit: NumberLimit): number {
  return Math.min(limit.max, Math.max(limit.min, value));
}

/**
 * Parser of one numeric export variable: an out-of-range number is clamped to
 * the spec's bounds (not refused); text that is not a number at all, or a
 * fraction where a count is expected, is refused so the operator hears of it.
 */
export function clampedSetting(limit: NumberLimit): (raw: string) => number {
  return (raw) => {
    const text = raw.trim();
    const pattern = limit.integer ? /^[+-]?\d+$/ : /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
    if (!pattern.test(text)) throw new Error(`must be ${limit.integer ? 'an integer' : 'a number'}, got "${raw}"`);
    return clamp(Number(text), limit);
  };
}

/** Every number clamped, and the chunk never larger than the batch. */
export function effectiveNumbers(raw: ExportNumbers): ExportNumbers {
  const out = {} as ExportNumbers;
  for (const key of Object.keys(EXPORT_LIMITS) as (keyof ExportNumbers)[]) out[key] = clamp(raw[key], EXPORT_LIMITS[key]);
  out.chunkSize = Math.min(out.chunkSize, out.batchSize);
  return out;
}

export const DEFAULT_EXPORT_NUMBERS: ExportNumbers = effectiveNumbers({
  batchSize: EXPORT_LIMITS.batchSize.default,
  chunkSize: EXPORT_LIMITS.chunkSize.default,
  maxRetries: EXPORT_LIMITS.maxRetries.default,
  backoffBaseS: EXPORT_LIMITS.backoffBaseS.default,
  timeoutS: EXPORT_LIMITS.timeoutS.default,
  totalDeadlineS: EXPORT_LIMITS.totalDeadlineS.default,
});

/** Query parameter names that carry credentials when they appear in an endpoint URL. */
const SECRET_QUERY = /(token|key|secret|password|passwd|pwd|auth|signature|sig|credential)/i;

/**
 * Checks an OTLP/HTTP endpoint: an absolute http(s) URL that carries no
 * credential (no user:password@, no token-like query parameter, nothing
 * secret-shaped). Credentials belong in the export headers only. Returns the
 * URL without trailing slashes; throws with a message that never repeats it.
 */
export function checkEndpoint(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('must be an http(s) URL');
  if (url.username || url.password) throw new Error('must not carry credentials (user:password@): put them in SERVICE_AI_LOG_OTEL_HEADERS');
  for (const name of url.searchParams.keys()) {
    if (SECRET_QUERY.test(name)) throw new Error(`must not carry credentials (query parameter ${name}): put them in SERVICE_AI_LOG_OTEL_HEADERS`);
  }
  if (redactSecrets(raw) !== raw || findSecret(raw)) throw new Error('must not carry credentials: put them in SERVICE_AI_LOG_OTEL_HEADERS');
  return raw.trim().replace(/\/+$/, '');
}

/** Parser of an endpoint variable (see checkEndpoint). */
export const otlpEndpoint = (raw: string): string => checkEndpoint(raw);

/** `OTEL_EXPORTER_OTLP_ENDPOINT` is a base URL: the logs signal lives under `/v1/logs`. */
export function logsEndpointFromBase(base: string): string {
  return `${base.replace(/\/+$/, '')}/v1/logs`;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Parses OTLP export headers: comma-separated `key=value` pairs whose values
 * are percent-encoded (the OTEL_EXPORTER_OTLP_HEADERS format). Errors name the
 * pair by position, never its value, since a value is usually a credential.
 */
export function otlpHeaders(raw: string): Record<string, string> {
  const headers: Record<string, string> = {};
  raw.split(',').forEach((pair, index) => {
    if (pair.trim() === '') return;
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`pair ${index + 1} must be key=value`);
    const key = pair.slice(0, eq).trim();
    if (!HEADER_NAME.test(key)) throw new Error(`pair ${index + 1} has an invalid header name`);
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(eq + 1).trim());
    } catch {
      throw new Error(`pair ${index + 1} (${key}) is not correctly percent-encoded`);
    }
    if (/[\r\n\0]/.test(value)) throw new Error(`pair ${index + 1} (${key}) contains a line break`);
    headers[key] = value;
  });
  return headers;
}
