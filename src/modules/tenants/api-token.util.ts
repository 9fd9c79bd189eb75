import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

export const TOKEN_PREFIX = 'sk_service_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Random base62 characters of a token: about 214 bits. */
const RANDOM_LENGTH = 36;
/** The CRC32 of the random part in base62, left-padded: 62^6 > 2^32. */
const CHECKSUM_LENGTH = 6;
/** Characters shown in listings to recognise a token: the prefix and the first four random ones. */
export const TOKEN_PREFIX_SHOWN = TOKEN_PREFIX.length + 4;

const CHECKSUMMED = new RegExp(`^${TOKEN_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);
/** Tokens issued before the checksum: 32 random bytes in base64url. They keep working. */
const LEGACY = new RegExp(`^${TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);

/**
 * What a presented token looks like before any lookup: `checksummed` (the
 * current format, checksum correct), `legacy` (issued before the checksum),
 * `bad-checksum` (the current format, mistyped or truncated) or `malformed`.
 * Only the first two are worth a database lookup.
 */
export type TokenShape = 'checksummed' | 'legacy' | 'bad-checksum' | 'malformed';

/**
 * A new token: the prefix, 36 random base62 characters and a 6-character
 * base62 CRC32 of them, as GitHub's tokens are built, so secret scanners can
 * recognise a Baton token and Baton refuses a mistyped one without a lookup.
 */
export function generateApiToken(): string {
  const random = randomBase62(RANDOM_LENGTH);
  return TOKEN_PREFIX + random + checksumOf(random);
}

export function tokenShape(token: string): TokenShape {
  if (CHECKSUMMED.test(token)) {
    const random = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + RANDOM_LENGTH);
    return token.slice(TOKEN_PREFIX.length + RANDOM_LENGTH) === checksumOf(random) ? 'checksummed' : 'bad-checksum';
  }
  return LEGACY.test(token) ? 'legacy' : 'malformed';
}

/** What is stored and looked up: the hex SHA-256 of the whole token. */
export function hashApiToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The token from an `Authorization: Bearer ...` header, or undefined. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1];
}

function checksumOf(random: string): string {
  let n = crc32(random);
  let out = '';
  for (let i = 0; i < CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** Unbiased base62: bytes at or above 248 (4 × 62) are drawn again. */
function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}
