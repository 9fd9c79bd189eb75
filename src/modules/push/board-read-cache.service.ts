import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { PushService } from './push.service';

/** The wake-up topic that drops a tenant's board on the other instances. */
const BOARD_TOPIC = 'board';
/** Entries kept over all tenants; past it the oldest go first. */
const MAX_ENTRIES = 5_000;

export interface BoardCacheFigures {
  entries: number;
  hits: number;
  misses: number;
  invalidations: number;
}

/**
 * The board read (sprint-items listing, context block) kept in this process
 * between writes. Every change a dashboard hears of (RealtimeEvents, which
 * push relays to the other instances) drops the tenant's entries; a read that
 * overlapped a change is not stored. It serves only where every write is
 * heard: one SQLite instance without Redis, or a tenant whose push is live.
 * `enabled` exists for the board-read benchmark.
 */
@Injectable()
export class BoardReadCache implements OnModuleInit {
  enabled = true;
  private readonly tenants = new Map<string, Map<string, { value: unknown; until: number }>>();
  private readonly generations = new Map<string, number>();
  private size = 0;
  private readonly figures = { hits: 0, misses: 0, invalidations: 0 };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly realtime: RealtimeEvents,
    private readonly push: PushService,
  ) {}

  onModuleInit(): void {
    this.realtime.subscribe((event) => this.invalidate(event.tenantId));
    this.push.onRemoteTopics((tenantId, topics) => {
      if (topics.includes(BOARD_TOPIC)) this.invalidate(tenantId);
    });
    // While push is down another instance's write may go unheard: nothing cached survives that.
    this.push.adapter.availability.onChange(() => this.clear());
  }

  /** Whether reads of `tenantId` may be served from here now. */
  usable(tenantId: string): boolean {
    if (!this.enabled) return false;
    if (this.push.liveFor(tenantId)) return true;
    return this.db.dialect === 'sqlite' && !this.push.adapter.configured;
  }

  /** `key`'s value, loaded on a miss; `changesAt` says when the value changes with no write (a lock lapsing), if ever. */
  async read<T>(key: string, load: () => Promise<T>, changesAt?: (value: T) => Date | null): Promise<T> {
    const tenantId = currentTenant().tenantId;
    if (!this.usable(tenantId)) return load();
    const entry = this.tenants.get(tenantId)?.get(key);
    if (entry && Date.now() < entry.until) {
      this.figures.hits += 1;
      return entry.value as T;
    }
    this.figures.misses += 1;
    const generation = this.generations.get(tenantId) ?? 0;
    const value = await load();
    const until = changesAt?.(value)?.getTime() ?? Number.POSITIVE_INFINITY;
    if ((this.generations.get(tenantId) ?? 0) === generation) this.store(tenantId, key, value, until);
    return value;
  }

  /**
   * A write the board shows that tells no dashboard (workspace notes and
   * decisions, the auto-summary's goal block): dropped here and on every
   * other instance.
   */
  changed(): void {
    const tenantId = currentTenant().tenantId;
    this.invalidate(tenantId);
    this.push.publish(tenantId, { wake: [BOARD_TOPIC] });
  }

  invalidate(tenantId: string): void {
    this.generations.set(tenantId, (this.generations.get(tenantId) ?? 0) + 1);
    const entries = this.tenants.get(tenantId);
    if (!entries) return;
    this.figures.invalidations += 1;
    this.size -= entries.size;
    this.tenants.delete(tenantId);
  }

  stats(): BoardCacheFigures {
    return { entries: this.size, ...this.figures };
  }

  private clear(): void {
    for (const tenantId of [...this.tenants.keys()]) this.invalidate(tenantId);
  }

  private store(tenantId: string, key: string, value: unknown, until: number): void {
    if (this.size >= MAX_ENTRIES) this.evictOldest();
    let entries = this.tenants.get(tenantId);
    if (!entries) this.tenants.set(tenantId, (entries = new Map()));
    if (!entries.has(key)) this.size += 1;
    entries.set(key, { value, until });
  }

  private evictOldest(): void {
    const [tenantId, entries] = this.tenants.entries().next().value ?? [];
    if (!tenantId || !entries) return;
    const [oldest] = entries.keys();
    entries.delete(oldest);
    this.size -= 1;
    if (entries.size === 0) this.tenants.delete(tenantId);
  }
}
