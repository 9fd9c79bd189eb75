import { findSecret, redactSecrets } from '../../../libs/secrets';

/** Keys whose value is a credential whatever it looks like. */
const SECRET_KEY =
  /(^|[_\-.])(token|access[_-]?token|refresh[_-]?token|password|passwd|passphrase|secret|client[_-]?secret|authorization|auth|api[_-]?key|apikey|cookie|credentials?|private[_-]?key|session[_-]?secret|bearer)$/i;
const SECRET_KEY_LOOSE = /(password|passwd|secret|token|authorization|api[_-]?key|apikey|cookie|credential|private[_-]?key)/i;

export const REDACTED = '[redacted]';
/** Largest JSON kept for one call's arguments; longer text is cut and marked. */
export const MAX_ARGUMENTS_CHARS = 8 * 1024;
const MAX_DEPTH = 8;
const MAX_STRING = 2000;
/** Values that cannot hold a secret and are in nearly every call: ids, times, short words. */
const PLAINLY_SAFE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d{4}-\d{2}-\d{2}(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?|-?\d+(?:\.\d+)?|.{0,7})$/i;
/** No secret pattern fits in fewer characters; longer keys are checked like values. */
const SHORT_KEY = 16;

/** True for a key such as `token`, `api_key`, `github_token`, `Authorization` or `client-secret`. */
export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key) || SECRET_KEY_LOOSE.test(key);
}

/**
 * The arguments of a tool call as the AI-log keeps them: every value under a
 * secret-named key replaced by `[redacted]`, every string passed through
 * redactSecrets (tokens, bearer headers, JWTs, credentials in URLs) and, if
 * findSecret still sees a secret in it, replaced whole; nesting and string
 * length bounded. The input is never modified.
 */
export function redactArguments(args: unknown): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  const value = redactValue(args, 0);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
}

function redactValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redactString(value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (typeof value !== 'object') return value === undefined ? null : String(value);
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.slice(0, 100).map((v) => redactValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>).slice(0, 100)) {
    const safeKey = key.length < SHORT_KEY ? key : redactSecrets(key);
    out[safeKey] = isSecretKey(key) ? REDACTED : redactValue(v, depth + 1);
  }
  return out;
}

function redactString(text: string): string {
  if (PLAINLY_SAFE.test(text)) return text;
  const clean = redactSecrets(text);
  // What redactSecrets cannot cut out (a provider key in an unknown format, a long random token) hides the whole value.
  if (findSecret(clean)) return REDACTED;
  return clean.length > MAX_STRING ? `${clean.slice(0, MAX_STRING)}…[truncated]` : clean;
}

/** The redacted arguments as stored: JSON, at most MAX_ARGUMENTS_CHARS (a cut is recorded, never a partial secret). */
export function argumentsJson(args: unknown): { json: string; truncated: boolean } {
  const redacted = redactArguments(args);
  const json = JSON.stringify(redacted);
  if (json.length <= MAX_ARGUMENTS_CHARS) return { json, truncated: false };
  return { json: JSON.stringify({ truncated: true, preview: json.slice(0, MAX_ARGUMENTS_CHARS - 100) }), truncated: true };
}
