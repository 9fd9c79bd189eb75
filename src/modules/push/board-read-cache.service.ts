import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { TenantVersions } from '../../../libs/pubsub';
import { beforeAnswer, currentTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { ThrottledLog } from '../../common/logging/throttled-log';
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

interface Entry {
  value: unknown;
  /** When it stops being served (epoch ms). */
  until: number;
  /** The tenant's board version in Redis it was loaded under ('' without Redis). */
  version: string;
}

/**
 * The board read (sprint-items listing, context block) kept in this process
 * between writes. Every change a dashboard hears of (RealtimeEvents, which
 * push relays to the other instances) drops the tenant's entries; a read that
 * overlapped a change is not stored. It serves only where every write is
 * heard: one SQLite instance without Redis, or a tenant whose push is live.
 *
 * With Redis, a relayed message can arrive after the writer answered, so the
 * message alone would leave a window for a stale read: every such change also
 * moves the tenant's board version in Redis before its answer leaves
 * (`beforeAnswer`), and an entry is served only while the version it was
 * loaded under is still the one Redis holds (one GET per read). When Redis
 * cannot answer, the board is read from the database.
 * `enabled` exists for the board-read benchmark.
 */
@Injectable()
export class BoardReadCache implements OnModuleInit {
  enabled = true;
  private readonly logger = new Logger('board-read-cache');
  private readonly bumpFailed = new ThrottledLog(this.logger);
  private readonly tenants = new Map<string, Map<string, Entry>>();
  private readonly generations = new Map<string, number>();
  /** The board versions in Redis; none without Redis (one process, which hears every write itself). */
  private readonly versions?: TenantVersions;
  private size = 0;
  private readonly figures = { hits: 0, misses: 0, invalidations: 0 };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly db: TenantDb,
    private readonly realtime: RealtimeEvents,
    private readonly push: PushService,
  ) {
    const adapter = push.adapter;
    if (adapter.configured)
      this.versions = new TenantVersions(
        () => adapter.openClient,
        () => adapter.commandClient,
        config.pubsubPrefix,
        BOARD_TOPIC,
      );
  }

  onModuleInit(): void {
    this.realtime.subscribe((event) => this.invalidate(event.tenantId));
    this.push.onRemoteTopics((tenantId, topics) => {
      if (topics.includes(BOARD_TOPIC)) this.invalidate(tenantId);
    });
    // Every change made here that drops the board (a dashboard event, or `changed()`) moves its version.
    this.push.onPublish((tenantId, notice) => {
      if (notice.event || notice.wake?.includes(BOARD_TOPIC)) this.moved(tenantId);
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
    let version = '';
    if (this.versions) {
      const now = await this.versions.read(tenantId);
      // Redis cannot say whether another instance wrote: the database can.
      if (now === undefined) return load();
      version = now;
    }
    const entry = this.tenants.get(tenantId)?.get(key);
    if (entry && entry.version === version && Date.now() < entry.until) {
      this.figures.hits += 1;
      return entry.value as T;
    }
    this.figures.misses += 1;
    const generation = this.generations.get(tenantId) ?? 0;
    const value = await load();
    if ((this.generations.get(tenantId) ?? 0) !== generation) return value;
    // A value loaded while another instance's write moved the version is not stored.
    if (this.versions && (await this.versions.read(tenantId)) !== version) return value;
    let until = changesAt?.(value)?.getTime() ?? Number.POSITIVE_INFINITY;
    // A write whose version bump failed (Redis away at that moment) is seen here within the safety poll, as a lost wake-up is.
    if (this.versions) until = Math.min(until, Date.now() + this.config.pushSafetyPollMs);
    this.store(tenantId, key, { value, until, version });
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

  /**
   * A change of `tenantId`'s board was made here: its version moves in Redis before the answer of
   * the request that made it leaves (after the request's transactions committed), or at once for
   * background work. Every tenant's, whatever its plan: another instance may see the plan, or a
   * budget pause, differently for a while.
   */
  private moved(tenantId: string): void {
    if (!this.versions) return;
    const bump = () => this.bump(tenantId);
    if (!beforeAnswer(`board-version:${tenantId}`, bump)) void bump();
  }

  private async bump(tenantId: string): Promise<void> {
    if (await this.versions!.bump(tenantId)) return;
    this.bumpFailed.warn('board version not moved in Redis: other instances may serve the board cached before this write until their safety poll', {
      tenant_id: tenantId,
      availability: this.push.adapter.state,
    });
  }

  private clear(): void {
    for (const tenantId of [...this.tenants.keys()]) this.invalidate(tenantId);
  }

  private store(tenantId: string, key: string, entry: Entry): void {
    if (this.size >= MAX_ENTRIES) this.evictOldest();
    let entries = this.tenants.get(tenantId);
    if (!entries) this.tenants.set(tenantId, (entries = new Map()));
    if (!entries.has(key)) this.size += 1;
    entries.set(key, entry);
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
