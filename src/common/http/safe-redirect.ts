const MAX_LENGTH = 2048;

/**
 * `next` when it is a path on this site (`/dashboard`, `/activate?code=X`),
 * else undefined: an absolute URL, a scheme-relative `//host`, a backslash
 * that browsers read as a slash, or control characters could send a person
 * who just signed in to another site.
 */
export function safeRedirectPath(next: unknown): string | undefined {
  if (typeof next !== 'string' || next.length === 0 || next.length > MAX_LENGTH) return undefined;
  if (!next.startsWith('/') || next.startsWith('//') || next.includes('\\')) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(next)) return undefined;
  const resolved = new URL(next, 'http://baton.invalid');
  return resolved.origin === 'http://baton.invalid' ? resolved.pathname + resolved.search + resolved.hash : undefined;
}
