import { DataSource, DataSourceOptions } from 'typeorm';

/** One Postgres server (database) that holds tenant schemas. */
export interface TenantServer {
  /** `host:port/database`: how the control plane records a placement, never with credentials. */
  key: string;
  /** The connection string (secret: it may carry a password). */
  url: string;
  /** Whether it is the control plane's own database (`SERVICE_DB_URL`). */
  control: boolean;
  /** Whether new tenants may be placed on it: those `SERVICE_TENANT_DB_URLS` names, or the control plane's alone when it names none. */
  placeable: boolean;
  /** Its place (from 1) in `SERVICE_TENANT_DB_URLS`, which health and logs name it by; absent for the control plane's when not listed. */
  place?: number;
}

/**
 * The key of a Postgres URL: host, port and database, lower-cased host, default port 5432. Two
 * URLs naming the same database with other credentials or parameters have the same key, so a
 * rotated password moves no tenant.
 */
export function serverKeyOf(url: string): string {
  const parsed = new URL(url);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || decodeURIComponent(parsed.username) || 'postgres';
  return `${parsed.hostname.toLowerCase()}:${parsed.port || '5432'}/${database}`;
}

/**
 * The servers that hold hosted tenants' schemas (`SERVICE_TENANT_DB_URLS`), with one pool each,
 * opened on first use and kept: unlike customers' own databases there are few of them. The
 * control plane's database is always one of them (the placement of every tenant made before
 * others were named), served by the shared pool itself.
 */
export class TenantServers {
  private readonly servers: TenantServer[];
  private readonly pools = new Map<string, Promise<DataSource>>();
  private readonly ready = new Map<string, DataSource>();

  constructor(
    private readonly shared: DataSource,
    controlUrl: string | undefined,
    urls: string[],
    private readonly options: (url: string) => DataSourceOptions,
  ) {
    const control = controlUrl ? serverKeyOf(controlUrl) : undefined;
    const byKey = new Map<string, TenantServer>();
    if (controlUrl && control) byKey.set(control, { key: control, url: controlUrl, control: true, placeable: urls.length === 0 });
    urls.forEach((url, i) => {
      const key = serverKeyOf(url);
      const known = byKey.get(key);
      if (known) Object.assign(known, { placeable: true, place: known.place ?? i + 1 });
      else byKey.set(key, { key, url, control: false, placeable: true, place: i + 1 });
    });
    this.servers = [...byKey.values()];
  }

  /** Every server, the control plane's first. */
  list(): readonly TenantServer[] {
    return this.servers;
  }

  /** The servers new tenants may be placed on. */
  placeable(): TenantServer[] {
    return this.servers.filter((s) => s.placeable);
  }

  /** The key of the control plane's database. */
  get controlKey(): string | undefined {
    return this.servers.find((s) => s.control)?.key;
  }

  /** The server of `key`, or undefined when this instance is not configured with it. */
  find(key: string): TenantServer | undefined {
    return this.servers.find((s) => s.key === key);
  }

  /** The stored placement of a server: null for the control plane's database. */
  placementOf(key: string): string | null {
    return key === this.controlKey ? null : key;
  }

  /**
   * The pool of the server with `key` (null: the control plane's database). A placement this
   * instance has no URL for is an error naming the key: its configuration lost a server.
   */
  source(key: string | null | undefined): Promise<DataSource> {
    if (!key || key === this.controlKey) return Promise.resolve(this.shared);
    let pool = this.pools.get(key);
    if (!pool) {
      const server = this.find(key);
      if (!server) return Promise.reject(new UnknownTenantServerError(key));
      pool = new DataSource(this.options(server.url)).initialize();
      this.pools.set(key, pool);
      pool.then(
        (source) => this.ready.set(key, source),
        () => this.pools.delete(key),
      );
    }
    return pool;
  }

  /** The pools open now, by key (the control plane's shared pool included), for gauges. */
  open(): Map<string, DataSource> {
    const open = new Map<string, DataSource>();
    if (this.controlKey) open.set(this.controlKey, this.shared);
    for (const [key, source] of this.ready) open.set(key, source);
    return open;
  }

  async closeAll(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    this.ready.clear();
    await Promise.all(pools.map((pool) => pool.then((source) => source.destroy()).catch(() => undefined)));
  }
}

/** A tenant is placed on a server this instance is not configured with. */
export class UnknownTenantServerError extends Error {
  override name = 'UnknownTenantServerError';
  readonly code = 'DATABASE_NOT_CONFIGURED';
  constructor(readonly key: string) {
    super(`the tenant's schema is on server ${key}, which SERVICE_TENANT_DB_URLS does not name`);
  }
}
