import { Inject, Injectable } from '@nestjs/common';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';

/**
 * A fixed-window limit on anything that can be counted by a key (requests for
 * one e-mail address, requests from one client address): at most `limit`
 * hits per `windowMs`; the hit past the limit blocks the key for a window.
 * The counters are the throttler storage's (Redis when SERVICE_CACHE_URL is
 * set, one count across instances; this process's memory otherwise or while
 * Redis is unreachable), so a limit never throws and never waits on Redis.
 */
@Injectable()
export class WindowLimiter {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
  ) {}

  /**
   * Counts one hit of `key` under the limit named `name`; 0 when it is within
   * the limit, else the whole seconds until the key may try again. Keys may
   * hold personal data (an e-mail address): callers pass a hash of them.
   */
  async hit(name: string, key: string, limit: number, windowMs: number): Promise<number> {
    try {
      const record = await this.storage.increment(`${this.config.pubsubPrefix}:${name}:${key}`, windowMs, limit, windowMs, name);
      return record.isBlocked ? Math.max(1, record.timeToBlockExpire) : 0;
    } catch {
      // The storage falls back to memory on its own; a failure past that lets the request through rather than answer 5xx.
      return 0;
    }
  }
}
