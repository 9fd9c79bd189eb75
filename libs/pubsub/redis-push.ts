import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { backoffDelay } from '../retry';
import { Availability, AvailabilityTracker } from './availability';

/** What travels on the channel: one tenant's wake-ups, dashboard event or budget pause. */
export interface Envelope {
  /** Tenant id. */
  t: string;
  /** Topics to wake (`msg:...`, `hitl:...`). */
  w?: string[];
  /** A dashboard event. */
  e?: { event: string; data: Record<string, unknown>; account?: string };
  /** The tenant's push is paused for this month (`YYYY-MM`). */
  p?: string;
}

interface Wire extends Envelope {
  /** Instance that published: it delivered locally already and ignores its own echo. */
  i: string;
}

export type PublishOutcome = { ok: true; latencyMs: number; count?: number } | { ok: false; reason: 'unavailable' | 'failed' };

export interface RedisPushOptions {
  /** SERVICE_CACHE_URL; undefined means push is not configured. */
  url?: string;
  /** Channel and key prefix. */
  prefix: string;
  /** Builds a client; tests inject failures here. */
  createClient?: (url: string) => Redis;
  /** How often a connected but unverified or degraded adapter re-checks (ms). */
  probeIntervalMs?: number;
  /** How long a publish may take before it counts as failed (ms). */
  commandTimeoutMs?: number;
  now?: () => Date;
}

export interface ErrorMark {
  errorClass: string;
  at: Date;
}

/** Reconnect backoff: 100 ms doubling to 5 s. */
export const reconnectDelay = (attempt: number) => backoffDelay({ firstMs: 100, maxMs: 5000 }, attempt);

/**
 * The Redis pub/sub adapter. Two connections (publishing and subscribing) to
 * SERVICE_CACHE_URL; every instance subscribes to one channel and receives
 * every tenant's envelopes, so a wake-up on one instance reaches waiters on
 * all of them. Nothing here ever throws to a caller or queues a command while
 * Redis is away: a publish that cannot go out at once reports `ok: false`, and
 * the caller's waiters fall back to reading the database.
 *
 * Availability moves (see `TRANSITIONS`): publisher ready → connected_unverified;
 * a probe publish through and the subscriber subscribed → reachable; a
 * publish failing or timing out on an open socket, or the subscriber down
 * → degraded; any socket loss → unreachable; reconnection (backoff 100 ms
 * to 5 s) → connected_unverified again.
 */
export class RedisPush {
  readonly instanceId = randomUUID();
  readonly availability: AvailabilityTracker;
  readonly channel: string;
  readonly configured: boolean;
  connectionGeneration = 0;
  /** Latest failed publish (including probes). */
  lastError?: ErrorMark;
  /** Latest failure to build a client from the URL. */
  lastConstructionError?: ErrorMark;
  /** Latest connection-level error (refused, reset, ...). */
  lastConnectionError?: ErrorMark;

  private publisher?: Redis;
  private subscriber?: Redis;
  private subscribed = false;
  private probeTimer?: NodeJS.Timeout;
  private verifying = false;
  private closed = false;
  private readonly handlers = new Set<(envelope: Envelope) => void>();
  private readonly now: () => Date;

  constructor(private readonly options: RedisPushOptions) {
    this.now = options.now ?? (() => new Date());
    this.channel = `${options.prefix}:push`;
    this.configured = Boolean(options.url);
    if (!options.url) {
      this.availability = new AvailabilityTracker('unconfigured', this.now);
      return;
    }
    const create = options.createClient ?? ((url: string) => defaultClient(url, options.commandTimeoutMs ?? 500));
    try {
      this.publisher = create(options.url);
      this.subscriber = create(options.url);
    } catch (error) {
      this.publisher?.disconnect();
      this.publisher = undefined;
      this.lastConstructionError = { errorClass: errorClass(error), at: this.now() };
      this.availability = new AvailabilityTracker('construction_failed', this.now);
      return;
    }
    this.availability = new AvailabilityTracker('idle', this.now);
    this.wire(this.publisher, this.subscriber);
  }

  get state(): Availability {
    return this.availability.state;
  }

  /** The publishing connection while push is live (budget counters share it), else undefined. */
  get commandClient(): Redis | undefined {
    return this.live ? this.publisher : undefined;
  }

  /**
   * The publishing connection while its socket is open, push live or not: a write's version bump
   * (TenantVersions) is tried even while publishing is degraded, for the instances that still read.
   */
  get openClient(): Redis | undefined {
    return this.publisher?.status === 'ready' ? this.publisher : undefined;
  }

  /** Push is used only when reachable; every other state means polling. */
  get live(): boolean {
    return this.state === 'reachable';
  }

  onEnvelope(handler: (envelope: Envelope) => void): () => void {
    this.handlers.add(handler);
    return () => this.handlers.delete(handler);
  }

  /**
   * Publishes one envelope, and when `countKey` is given increments that
   * counter in the same round trip (the tenant's monthly budget). Only tried
   * while reachable; never waits for a reconnection.
   */
  async publish(envelope: Envelope, countKey?: { key: string; ttlSeconds: number }): Promise<PublishOutcome> {
    const publisher = this.publisher;
    if (!publisher || !this.live) return { ok: false, reason: 'unavailable' };
    const wire: Wire = { ...envelope, i: this.instanceId };
    const started = performance.now();
    try {
      const pipeline = publisher.pipeline();
      if (countKey) pipeline.incr(countKey.key).expire(countKey.key, countKey.ttlSeconds);
      pipeline.publish(this.channel, JSON.stringify(wire));
      const results = (await pipeline.exec()) ?? [];
      for (const [error] of results) if (error) throw error;
      return { ok: true, latencyMs: performance.now() - started, count: countKey ? Number(results[0][1]) : undefined };
    } catch (error) {
      this.lastError = { errorClass: errorClass(error), at: this.now() };
      if (publisher.status === 'ready') this.toDegraded('publish failed on an open connection');
      else this.availability.move('unreachable', 'publish failed: connection lost');
      return { ok: false, reason: 'failed' };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.probeTimer);
    for (const client of [this.publisher, this.subscriber]) {
      if (!client) continue;
      client.removeAllListeners();
      client.on('error', () => undefined);
      client.disconnect(false);
    }
  }

  private wire(publisher: Redis, subscriber: Redis) {
    publisher.on('ready', () => {
      this.connectionGeneration += 1;
      this.availability.move('connected_unverified', 'publisher connected');
      void this.verify();
    });
    publisher.on('close', () => {
      if (this.closed) return;
      this.availability.move('unreachable', 'publisher connection closed');
    });
    publisher.on('error', (error: Error) => {
      this.lastConnectionError = { errorClass: errorClass(error), at: this.now() };
    });
    subscriber.on('ready', () => {
      subscriber
        .subscribe(this.channel)
        .then(() => {
          this.subscribed = true;
          return this.verify();
        })
        .catch((error: unknown) => {
          this.lastConnectionError = { errorClass: errorClass(error), at: this.now() };
        });
    });
    subscriber.on('close', () => {
      this.subscribed = false;
      if (this.closed) return;
      // When Redis itself went away the publisher notices within moments: wait for
      // that, so an outage reads reachable → unreachable, not via degraded.
      setTimeout(() => {
        if (this.closed || this.subscribed || this.state !== 'reachable') return;
        if (this.publisher?.status === 'ready') this.toDegraded('subscriber connection closed');
      }, 200).unref();
    });
    subscriber.on('error', (error: Error) => {
      this.lastConnectionError = { errorClass: errorClass(error), at: this.now() };
    });
    subscriber.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return;
      let wire: Wire;
      try {
        wire = JSON.parse(raw) as Wire;
      } catch {
        return;
      }
      if (wire.i === this.instanceId || typeof wire.t !== 'string') return;
      for (const handler of this.handlers) handler(wire);
    });
  }

  /** A probe publish through the open publisher, plus a live subscription, makes the adapter reachable. */
  private async verify(): Promise<void> {
    const publisher = this.publisher;
    if (!publisher || this.closed || this.verifying || publisher.status !== 'ready') return;
    if (this.state !== 'connected_unverified' && this.state !== 'degraded') return;
    this.verifying = true;
    try {
      await publisher.publish(`${this.options.prefix}:probe`, this.instanceId);
      if (this.subscribed && this.subscriber?.status === 'ready') {
        this.availability.move('reachable', 'probe publish went through');
        this.stopProbe();
      } else if (this.state === 'connected_unverified') {
        // The subscriber's own ready handler verifies again once it has subscribed.
        this.scheduleProbe();
      }
    } catch (error) {
      this.lastError = { errorClass: errorClass(error), at: this.now() };
      if (publisher.status === 'ready') this.toDegraded('probe publish failed on an open connection');
      else this.availability.move('unreachable', 'probe publish failed: connection lost');
    } finally {
      this.verifying = false;
    }
  }

  private toDegraded(reason: string) {
    this.availability.move('degraded', reason);
    this.scheduleProbe();
  }

  private scheduleProbe() {
    if (this.probeTimer || this.closed) return;
    this.probeTimer = setInterval(() => {
      if (this.state === 'reachable' || this.state === 'unreachable') this.stopProbe();
      else void this.verify();
    }, this.options.probeIntervalMs ?? 1000);
    this.probeTimer.unref();
  }

  private stopProbe() {
    clearInterval(this.probeTimer);
    this.probeTimer = undefined;
  }
}

/**
 * A client that never queues: while Redis is away a command fails at once,
 * and a slow command fails after `commandTimeoutMs`. It reconnects in the
 * background with `reconnectDelay`.
 */
function defaultClient(url: string, commandTimeoutMs: number): Redis {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded here, not at the top: an instance without Redis never needs the module
  const RedisClient = (require('ioredis') as typeof import('ioredis')).default;
  const client = new RedisClient(url, {
    enableOfflineQueue: false,
    autoResubscribe: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2000,
    commandTimeout: commandTimeoutMs,
    retryStrategy: reconnectDelay,
    lazyConnect: false,
  });
  client.on('error', () => undefined);
  return client;
}

/** The class of an error (never its message: a message can carry a host name or a password). */
export function errorClass(error: unknown): string {
  const e = error as { code?: unknown; name?: unknown } | null;
  if (e && typeof e.code === 'string') return e.code;
  if (e && typeof e.name === 'string') return e.name;
  return 'Error';
}
