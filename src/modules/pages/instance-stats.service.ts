import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { runWithTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { Session } from '../sessions/session.entity';
import { TenantDirectory } from '../tenants/tenant-directory.service';

/**
 * How long a count of active sessions is reused at most: a badge is fetched often and the count walks
 * every workspace. A session starting or ending (on any instance: events are relayed) drops it sooner.
 */
const SESSIONS_CACHE_MS = 30_000;

/** The numbers the public badges show: nothing that tells one workspace from another. */
@Injectable()
export class InstanceStats implements OnModuleDestroy {
  private cached?: { count: number; at: number };
  private pending?: Promise<number>;
  /** Moves on at every session start or end: a count begun before one is not kept. */
  private generation = 0;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly tools: ToolRegistry,
    private readonly directory: TenantDirectory,
    private readonly db: TenantDb,
    events: RealtimeEvents,
  ) {
    this.unsubscribe = events.subscribe(({ event }) => {
      if (event !== 'session_started' && event !== 'session_closed') return;
      this.generation++;
      this.cached = undefined;
      this.pending = undefined;
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }

  toolCount(): number {
    return this.tools.list().length;
  }

  /** Active Baton sessions across every workspace this instance serves (self-hosted: the one). */
  activeSessions(): Promise<number> {
    if (this.cached && Date.now() - this.cached.at < SESSIONS_CACHE_MS) return Promise.resolve(this.cached.count);
    this.pending ??= this.recount();
    return this.pending;
  }

  private async recount(): Promise<number> {
    const generation = this.generation;
    try {
      const count = await this.countSessions();
      if (generation === this.generation) this.cached = { count, at: Date.now() };
      return count;
    } finally {
      if (generation === this.generation) this.pending = undefined;
    }
  }

  private async countSessions(): Promise<number> {
    let total = 0;
    for (const tenant of await this.directory.listContexts()) {
      // A workspace whose own database is out of reach is left out of the count, not a broken badge.
      total += await runWithTenant(tenant, () => this.db.read((m) => m.getRepository(Session).countBy({ status: 'active' }))).catch(() => 0);
    }
    return total;
  }
}
