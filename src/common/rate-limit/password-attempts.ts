import { Inject, Injectable } from '@nestjs/common';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { clientKey } from './auth-failure-limiter';

/** Password guesses one client address may make at one door per window. */
export const PASSWORD_ATTEMPT_LIMIT = 10;
/** The window of PASSWORD_ATTEMPT_LIMIT, and how long a client past it waits. */
export const PASSWORD_ATTEMPT_WINDOW_MS = 60_000;

/**
 * Counts password guesses per client address at a door (the site gate, the
 * admin sign-in), in the throttler storage the other limits use: Redis when
 * SERVICE_CACHE_URL is set, so the count holds across instances, this
 * process's memory otherwise. Every guess counts, right or wrong, so a client
 * past the limit is refused before its password is even compared.
 */
@Injectable()
export class PasswordAttempts {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
  ) {}

  /** Counts one guess by `client` at `door`: 0 when it may be compared, else the seconds to wait. */
  async count(door: string, client: string | undefined): Promise<number> {
    const key = `${this.config.pubsubPrefix}:password-attempts:${door}:${clientKey(client)}`;
    const record = await this.storage.increment(key, PASSWORD_ATTEMPT_WINDOW_MS, PASSWORD_ATTEMPT_LIMIT, PASSWORD_ATTEMPT_WINDOW_MS, 'password-attempts');
    return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : 0;
  }
}
