import { DataSource, DataSourceOptions } from 'typeorm';

export interface ByodbPoolOptions {
  /** Connections per customer database. */
  poolSize: number;
  /** Customer databases kept open at once. */
  maxPools: number;
  /** Builds the TypeORM options for a URL (entities, logging, the checked address to connect to, ...). */
  dataSourceOptions: (url: string, poolSize: number) => DataSourceOptions | Promise<DataSourceOptions>;
}

interface Entry {
  ready: Promise<DataSource>;
  lastUsed: number;
}

/**
 * One small pool per BYODB tenant, opened on first use and closed when it is the
 * least recently used beyond `maxPools`, so open connections stay bounded by
 * `poolSize * maxPools` however many tenants bring their own database.
 */
export class ByodbPools {
  private readonly pools = new Map<string, Entry>();

  constructor(private readonly options: ByodbPoolOptions) {}

  /** The pool of `tenantId`, opening it with `url()` when it is not open yet. */
  async get(tenantId: string, url: () => string): Promise<DataSource> {
    let entry = this.pools.get(tenantId);
    if (!entry) {
      const ready = Promise.resolve()
        .then(() => this.options.dataSourceOptions(url(), this.options.poolSize))
        .then((options) => new DataSource(options).initialize());
      entry = { ready, lastUsed: Date.now() };
      this.pools.set(tenantId, entry);
      ready.catch(() => this.pools.delete(tenantId));
      await this.evictBeyondLimit();
    }
    entry.lastUsed = Date.now();
    return entry.ready;
  }

  /** Closes the pool of one tenant (after its database changed or it was removed). */
  async close(tenantId: string): Promise<void> {
    const entry = this.pools.get(tenantId);
    if (!entry) return;
    this.pools.delete(tenantId);
    await entry.ready.then((ds) => ds.destroy()).catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.pools.keys()].map((id) => this.close(id)));
  }

  get openCount(): number {
    return this.pools.size;
  }

  private async evictBeyondLimit() {
    while (this.pools.size > this.options.maxPools) {
      const [oldest] = [...this.pools.entries()].sort((a, b) => a[1].lastUsed - b[1].lastUsed)[0];
      await this.close(oldest);
    }
  }
}
