import type Redis from 'ioredis';

/** A version key outlives any value stored under it by far, then Redis forgets an idle tenant's. */
export const VERSION_TTL_SECONDS = 30 * 86400;

/** Redis key of a tenant's version of `name` (the board): `<prefix>:<name>:<tenant>`. */
export function versionKey(prefix: string, name: string, tenantId: string): string {
  return `${prefix}:${name}:${tenantId}`;
}

/**
 * One version number per tenant in Redis, shared by every instance: a change moves it (`bump`,
 * an INCR), and a value kept in a process is good only while the version it was read under is
 * still the one Redis holds (`read`, one GET). Unlike a pub/sub message, a bump is done before
 * the change's answer leaves, so a reader on any instance that asks after that answer sees the
 * new version. Neither call throws or waits for a reconnection: no client, a failure or the
 * command timeout answer `false` / `undefined`, and the caller does without.
 */
export class TenantVersions {
  constructor(
    /** The connection for a bump: any open one (a change is counted even while push is degraded). */
    private readonly writer: () => Redis | undefined,
    /** The connection for a read: only a live one (a value is trusted only while push is live). */
    private readonly reader: () => Redis | undefined,
    private readonly prefix: string,
    private readonly name: string,
  ) {}

  /** Moves the tenant's version; false when Redis did not take it. */
  async bump(tenantId: string): Promise<boolean> {
    const client = this.writer();
    if (!client) return false;
    const key = versionKey(this.prefix, this.name, tenantId);
    try {
      const results = (await client.pipeline().incr(key).expire(key, VERSION_TTL_SECONDS).exec()) ?? [];
      return results.length === 2 && results.every(([error]) => !error);
    } catch {
      return false;
    }
  }

  /** The versions of several tenants now (each `0` before its first change), in one round trip (MGET); each undefined when Redis cannot say. */
  async readMany(tenantIds: string[]): Promise<(string | undefined)[]> {
    const client = this.reader();
    if (!client || tenantIds.length === 0) return tenantIds.map(() => undefined);
    try {
      const values = await client.mget(tenantIds.map((id) => versionKey(this.prefix, this.name, id)));
      return values.map((v) => v ?? '0');
    } catch {
      return tenantIds.map(() => undefined);
    }
  }

  /** The tenant's version now (`0` before its first change), or undefined when Redis cannot say. */
  async read(tenantId: string): Promise<string | undefined> {
    return (await this.readMany([tenantId]))[0];
  }
}
