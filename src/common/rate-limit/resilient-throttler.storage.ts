import { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import type Redis from 'ioredis';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

type Record = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Rate-limit counters in Redis, so a limit holds across every instance; while
 * Redis is unreachable, counters fall back to this process's memory. A Redis
 * outage therefore never turns into a 5xx or a stalled request: the limit is
 * enforced per instance until Redis is back, then shared again. Without Redis
 * configured, the memory counters are the only ones.
 */
export class ResilientThrottlerStorage implements ThrottlerStorage {
  private readonly logger = new Logger('rate-limit');
  private readonly memory = new MemoryThrottlerStorage();
  private readonly shared?: ThrottlerStorageRedisService;
  private lastWarning = 0;

  constructor(redis: Redis | null) {
    if (!redis) return;
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the Redis storage (and ioredis with it) loads only where Redis is configured
    const { ThrottlerStorageRedisService: RedisStorage } = require('@nest-lab/throttler-storage-redis') as typeof import('@nest-lab/throttler-storage-redis');
    this.shared = new RedisStorage(redis);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<Record> {
    if (this.shared) {
      try {
        return await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
      } catch (error) {
        this.warn(error as Error);
      }
    }
    return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  onApplicationShutdown() {
    this.memory.onApplicationShutdown();
  }

  private warn(error: Error & { code?: string }) {
    if (Date.now() - this.lastWarning < 30_000) return;
    this.lastWarning = Date.now();
    this.logger.warn({ msg: 'rate-limit counters fell back to process memory', error_class: error.code ?? error.name });
  }
}
