import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { hash, randomBytes, randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { PublicUrl } from '../../common/public-url';
import { RequestError } from '../../common/errors/request-error';
import { clientKey } from '../../common/rate-limit/auth-failure-limiter';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { SignIn } from '../accounts/sign-in.service';
import { EmailSender } from '../notifications/email.sender';
import { EmailQueue } from '../notifications/email-queue.service';
import { magicLinkEmail } from '../notifications/templates/magic-link.email';
import { RequestMagicLinkDto } from './dto/request-magic-link.dto';
import { MAGIC_LINK_KEEP_MS, MAGIC_LINK_TTL_MS, MAGIC_LINK_WINDOW_MS, MAGIC_LINKS_PER_ADDRESS, MAGIC_LINKS_PER_CLIENT } from './magic-link.constants';
import { MagicLinkRecord } from './magic-link.entity';
import { MagicLinkError } from './magic-link.errors';

/** What a link's token looks like: 32 random bytes in base64url. Anything else is refused without a lookup. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const TTL_MINUTES = MAGIC_LINK_TTL_MS / 60_000;
/** Sweeps of old links run at most this often per instance. */
const SWEEP_INTERVAL_MS = 60_000;

/** What a request for a link is answered, whatever happened to it. */
export const MAGIC_LINK_ACCEPTED = {
  message: `if the address can receive e-mail, a sign-in link is on its way; it works once, for ${TTL_MINUTES} minutes`,
  expires_in_seconds: MAGIC_LINK_TTL_MS / 1000,
};

/**
 * Sign-in by e-mail link (hosted). A request stores a single-use token (its
 * SHA-256 only) with the address, the return path and an expiry, and e-mails
 * the link; the answer is the same whether or not an account has that
 * address, and it does not wait for the e-mail. Requests are limited per
 * address and per client. Opening the link consumes it in one conditional
 * UPDATE, so of two opens exactly one signs in.
 */
@Injectable()
export class MagicLinks {
  private readonly logger = new Logger('magic-link');
  private readonly warnings = new ThrottledLog(this.logger, 3_600_000);
  private lastSweep = 0;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly email: EmailSender,
    private readonly queue: EmailQueue,
    private readonly limiter: WindowLimiter,
    private readonly publicUrl: PublicUrl,
    private readonly signIn: SignIn,
  ) {}

  /** POST /auth/magic: counts the request, stores the link and sends it. */
  async request(input: RequestMagicLinkDto, client: string | undefined): Promise<void> {
    if (!this.config.isHosted) throw MagicLinkError.notHosted();
    await this.checkLimits(input.email, client);
    if (!this.email.configured) {
      // Nobody could receive the link: nothing is stored, and the answer stays the same.
      this.warnings.warn('sign-in link requested but e-mail is not configured (EMAIL_API_KEY): no link was sent');
      return;
    }
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.source.getRepository(MagicLinkRecord).insert({
      id: randomUUID(),
      token_hash: hashOf(token),
      email: input.email,
      next: safeRedirectPath(input.next) ?? null,
      created_at: now,
      expires_at: new Date(now.getTime() + MAGIC_LINK_TTL_MS),
      consumed_at: null,
    });
    this.queue.enqueue('magic_link', magicLinkEmail(input.email, this.publicUrl.to(`/auth/magic/verify?token=${token}`), TTL_MINUTES));
    this.sweep(now);
  }

  /** GET /auth/magic/verify: uses the link once and signs its address in. */
  async verify(token: string, req: Request, res: Response): Promise<void> {
    if (!this.config.isHosted) throw MagicLinkError.notHosted();
    const link = await this.consume(token);
    await this.signIn.complete({ provider: 'magic', subject: link.email, email: link.email, emailVerified: true }, req, res, link.next ?? undefined);
  }

  /** Marks the link used and returns it; refuses an unknown, used or expired one. */
  private async consume(token: string): Promise<Pick<MagicLinkRecord, 'email' | 'next'>> {
    if (!TOKEN_SHAPE.test(token)) throw MagicLinkError.unknown();
    const tokenHash = hashOf(token);
    const now = new Date();
    const [used]: [Pick<MagicLinkRecord, 'email' | 'next'>[], number] = await this.source.query(
      `UPDATE control.magic_links SET consumed_at = $2
        WHERE token_hash = $1 AND consumed_at IS NULL AND expires_at > $2
        RETURNING email, next`,
      [tokenHash, now],
    );
    if (used[0]) return used[0];
    const [link]: Pick<MagicLinkRecord, 'consumed_at'>[] = await this.source.query('SELECT consumed_at FROM control.magic_links WHERE token_hash = $1', [tokenHash]);
    if (!link) throw MagicLinkError.unknown();
    throw link.consumed_at ? MagicLinkError.used() : MagicLinkError.expired(TTL_MINUTES);
  }

  /**
   * Per client address first, then per e-mail address (by its hash, so no
   * address is written to Redis): a client over its limit does not use up an
   * address's allowance.
   */
  private async checkLimits(email: string, client: string | undefined): Promise<void> {
    const fromClient = await this.limiter.hit('magic-link-client', clientKey(client), MAGIC_LINKS_PER_CLIENT, MAGIC_LINK_WINDOW_MS);
    const retryAfter = fromClient || (await this.limiter.hit('magic-link-address', hashOf(email), MAGIC_LINKS_PER_ADDRESS, MAGIC_LINK_WINDOW_MS));
    if (retryAfter > 0) {
      throw RequestError.rateLimited(`too many sign-in links were requested; try again in ${Math.ceil(retryAfter / 60)} minute(s)`, retryAfter);
    }
  }

  /** Deletes links a day past their expiry, at most once a minute per instance, off the request's path. */
  private sweep(now: Date): void {
    if (now.getTime() - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now.getTime();
    this.source
      .query('DELETE FROM control.magic_links WHERE expires_at < $1', [new Date(now.getTime() - MAGIC_LINK_KEEP_MS)])
      .catch((error: Error) => this.warnings.warn('old sign-in links not swept', { reason: error.message }));
  }
}

function hashOf(value: string): string {
  return hash('sha256', value, 'hex');
}
