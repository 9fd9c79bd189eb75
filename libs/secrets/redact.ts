const PATTERNS: RegExp[] = [
  // Baton's own API tokens
  /sk_service_[A-Za-z0-9_-]+/g,
  // common provider keys: sk-..., sk_live_..., ghp_..., xoxb-..., AKIA...
  /\b(?:sk|rk|pk)[-_](?:live|test|proj|ant)?[-_]?[A-Za-z0-9_-]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bxox[abpr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  // bearer / basic credentials in header-like text
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi,
  // JSON web tokens
  /\beyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/g,
];

/**
 * Everything before the last @ of a URL's authority (user, password, or `:password` alone).
 * The scheme starts at a word boundary and is at most 32 characters, and the authority at
 * most 1024, so the scan stays linear on long input (a megabyte of letters costs
 * milliseconds, not minutes).
 */
const URL_CREDENTIALS = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]{0,31}:\/\/)[^/\s?#@]{0,1024}(?:@[^/\s?#@]{0,1024})*@/gi;

/**
 * What every pattern above needs somewhere in the text (their fixed beginnings, without regard to
 * case, and a URL's `://`): one scan that lets the usual log line (an access-log entry, a message
 * with ids and counts) through without the eight replacements, which cost more than the rest of
 * writing the line.
 */
const MAY_HOLD_SECRET = /sk_service_|\b(?:sk|rk|pk)[-_]|\bgh[pousr]_|\bxox[abpr]-|\bakia|\b(?:bearer|basic)\s|\beyj|:\/\//i;

/**
 * Returns the text with every secret-shaped substring replaced by `[redacted]`.
 * Used on everything that is written to a log.
 */
export function redactSecrets(text: string): string {
  return MAY_HOLD_SECRET.test(text) ? replaceSecretShapes(text) : text;
}

/** `redactSecrets` without the quick scan in front: every pattern applied, whatever the text. */
export function replaceSecretShapes(text: string): string {
  let out = text.replace(URL_CREDENTIALS, (_m: string, scheme: string) => `${scheme}[redacted]@`);
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match, scheme?: string) => (typeof scheme === 'string' && /^(bearer|basic)$/i.test(scheme) ? `${scheme} [redacted]` : '[redacted]'));
  }
  return out;
}
