import { Inject, Injectable } from '@nestjs/common';
import { hash, randomBytes } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * Stands for the token in the stored copy of a handoff's content. As long as a
 * token (so `bytes` stays true) and never one: `*` is not base32.
 */
const STORED_TOKEN_PLACEHOLDER = 'ho_****************';

export interface IssuedHandoffToken {
  /** Shown once, in the generating answer. */
  token: string;
  /** What is stored and looked up. */
  sha256: string;
  expiresAt: Date;
}

/**
 * Handoff tokens: how one is made and hashed, and how it is kept out of the
 * stored content and put back for the session that starts from it.
 */
@Injectable()
export class HandoffTokens {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  /** A new token for a handoff generated at `now`, usable for SERVICE_HANDOFF_TTL_SECONDS from then. */
  issue(now: Date): IssuedHandoffToken {
    const token = newToken();
    return { token, sha256: this.hash(token), expiresAt: new Date(now.getTime() + this.config.handoffTtlS * 1000) };
  }

  /** As for API tokens: the hex SHA-256 of the whole token. */
  hash(token: string): string {
    return hash('sha256', token, 'hex');
  }

  /** The content as stored: the token (front matter and instructions) replaced by the placeholder. */
  masked(content: string, token: string): string {
    return content.replaceAll(token, STORED_TOKEN_PLACEHOLDER);
  }

  /** The content as delivered, given back to the session that starts from it with its token. */
  unmasked(storedContent: string, token: string): string {
    return storedContent.replaceAll(STORED_TOKEN_PLACEHOLDER, token);
  }
}

/** `ho_` and 16 base32 characters (80 random bits). */
function newToken(): string {
  const bytes = randomBytes(16);
  let token = 'ho_';
  for (let i = 0; i < 16; i++) token += BASE32[bytes[i] & 31];
  return token;
}
