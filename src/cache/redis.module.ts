import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import type Redis from 'ioredis';
import { Backoff, backoffDelay } from '../../libs/retry';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** Reconnecting to Redis: 400 ms after the first loss, doubling, at most 10 s apart. */
const RECONNECT_BACKOFF: Backoff = { firstMs: 200, maxMs: 10_000 };

/** The shared ioredis client, or null when SERVICE_CACHE_URL is unset. */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/**
 * A client that never stalls a request: commands issued while Redis is away
 * fail at once (no offline queue) and callers fall back to their in-process or
 * database path; the client keeps reconnecting in the background.
 */
export function createRedisClient(url: string, logger = new Logger('redis')): Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- ioredis loads only where Redis is configured: an instance without it never needs the module
  const RedisClient = (require('ioredis') as typeof import('ioredis')).default;
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 500,
    retryStrategy: (attempt) => backoffDelay(RECONNECT_BACKOFF, attempt),
  });
  let lastLogged = 0;
  client.on('error', (error: Error & { code?: string }) => {
    // One line per 30 s at most, with the error class only: the URL may carry a password.
    if (Date.now() - lastLogged < 30_000) return;
    lastLogged = Date.now();
    logger.warn({ msg: 'redis unavailable', error_class: error.code ?? error.name });
  });
  return client;
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS_CLIENT,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.cacheUrl ? createRedisClient(config.cacheUrl) : null),
    },
  ],
  exports: [REDIS_CLIENT],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS_CLIENT) private readonly redis: Redis | null) {}

  onApplicationShutdown() {
    this.redis?.disconnect(false);
  }
}
