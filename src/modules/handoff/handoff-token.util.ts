import { hash, randomBytes } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Stands for the token in the stored copy of a handoff's content. As long as a
 * token (so `bytes` stays true) and never one: `*` is not base32.
 */
export const STORED_TOKEN_PLACEHOLDER = 'ho_****************';

/** A new handoff token: `ho_` and 16 base32 characters (80 random bits). */
export function newHandoffToken(): string {
  const bytes = randomBytes(16);
  let token = 'ho_';
  for (let i = 0; i < 16; i++) token += BASE32[bytes[i] & 31];
  return token;
}

/** What is stored and looked up, as for API tokens: the hex SHA-256 of the whole token. */
export function hashHandoffToken(token: string): string {
  return hash('sha256', token, 'hex');
}

/** The content as stored: the token (front matter and instructions) replaced by the placeholder. */
export function contentWithoutToken(content: string, token: string): string {
  return content.replaceAll(token, STORED_TOKEN_PLACEHOLDER);
}

/** The content as delivered, given back to the session that starts from it with its token. */
export function contentWithToken(storedContent: string, token: string): string {
  return storedContent.replaceAll(STORED_TOKEN_PLACEHOLDER, token);
}
