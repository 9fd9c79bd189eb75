import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A cookie value that proves it was issued here until a given time:
 * `<expiry in seconds since the epoch>.<HMAC-SHA256>`, under a key derived
 * from SESSION_SECRET and the cookie's purpose. A purpose may name the secret
 * the cookie stands for (a password's digest), so changing that secret makes
 * every cookie issued for it worthless without storing anything.
 */
export class CookieSigner {
  private readonly key: Buffer;

  constructor(sessionSecret: string, purpose: string) {
    this.key = createHmac('sha256', sessionSecret).update(`baton-cookie:${purpose}`).digest();
  }

  /** A value accepted by `verify` until `lifetimeMs` from `now`. */
  issue(lifetimeMs: number, now = Date.now()): string {
    const expires = String(Math.floor((now + lifetimeMs) / 1000));
    return `${expires}.${this.mac(expires)}`;
  }

  /** Whether `value` was issued by this signer and has not expired. */
  verify(value: string | undefined, now = Date.now()): boolean {
    if (!value) return false;
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return false;
    const given = Buffer.from(match[2]);
    const expected = Buffer.from(this.mac(match[1]));
    return given.length === expected.length && timingSafeEqual(given, expected) && Number(match[1]) * 1000 > now;
  }

  private mac(expires: string): string {
    return createHmac('sha256', this.key).update(expires).digest('base64url');
  }
}

/** SHA-256 of a secret, for comparing in constant time and for naming it in a signer's purpose. */
export function secretDigest(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

/** Whether `given` is `expected`, compared in constant time over their digests (their lengths leak nothing). */
export function secretMatches(given: string, expectedDigest: Buffer): boolean {
  return timingSafeEqual(secretDigest(given), expectedDigest);
}
