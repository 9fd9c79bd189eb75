import { hash, randomBytes } from 'node:crypto';

export const TOKEN_PREFIX = 'sk_service_';

/** A new token: the prefix and 32 random bytes in base64url (43 characters). */
export function generateApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
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
