import { DataSource } from 'typeorm';
import { CONTROL_SCHEMA } from './tenant-schema';
import type { TenantContext } from './tenant-context';

/** Seconds a client is asked to wait while its workspace is being moved. */
export const TENANT_MOVING_RETRY_AFTER_S = 2;

/**
 * The tenant's schema refused the work because the tenant is being moved to another server
 * (`npm run tenant:move`: its writes are frozen while its rows are copied) or has just moved
 * (its old schema is closed or gone, and the context this work ran with named the old server).
 * The client retries in a few seconds; by then the tenant is writable again, on its new server.
 */
export class TenantMovingError extends Error {
  readonly code = 'TENANT_MOVING';
  readonly retryAfterSeconds = TENANT_MOVING_RETRY_AFTER_S;

  constructor() {
    super('this workspace is being moved to another database server; retry in a few seconds');
    this.name = 'TenantMovingError';
  }
}

/** SQLSTATEs a schema closed by a move gives: privilege revoked, table or schema gone. */
const CLOSED_STATES = new Set(['42501', '42P01', '3F000']);

/**
 * True when `error` may come from a schema a move closed: permission denied (its writes or reads
 * were revoked), an undefined table or schema (it was dropped), or its role gone (`SET ROLE` of a
 * dropped role). Only a look at the control plane tells a move from a bug.
 */
export function mayBeClosedByMove(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 4; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && CLOSED_STATES.has(code)) return true;
    if (code === '22023' && typeof message === 'string' && /^role ".*" does not exist/.test(message)) return true;
    current = (current as { driverError?: unknown; cause?: unknown }).driverError ?? (current as { cause?: unknown }).cause;
  }
  return false;
}

/** How long one look at a tenant's placement answers for every failure of that tenant. */
const PLACEMENT_LOOK_MS = 500;

/**
 * Tells failures of a tenant being moved (or just moved) from others. A failure that
 * `mayBeClosedByMove` of a hosted tenant's schema costs one look at its control-plane row (shared
 * by the failures of the next half second): `moving_to` set, or a server other than the one the
 * work's context named, makes it a `TenantMovingError`, and in the second case the listeners
 * (the token and web-session caches) forget the tenant's context so the next request finds the
 * new server.
 */
export class MoveWatch {
  private readonly looks = new Map<string, { at: number; placement: Promise<Placement | undefined> }>();
  private readonly listeners = new Set<(tenantId: string) => void>();

  constructor(private readonly control: DataSource) {}

  /** `listener` is told of each tenant whose context named a server it has left. */
  onMoved(listener: (tenantId: string) => void): void {
    this.listeners.add(listener);
  }

  /** Throws what `error` means for `tenant`: a `TenantMovingError`, or `error` itself. */
  async explain(tenant: TenantContext, error: unknown): Promise<never> {
    if (!tenant.role || tenant.byodbUrlEncrypted || !mayBeClosedByMove(error)) throw error;
    let placement: Placement | undefined;
    try {
      placement = await this.placementOf(tenant.tenantId);
    } catch {
      throw error;
    }
    if (!placement) throw error;
    const moved = (placement.db_server ?? null) !== (tenant.server ?? null);
    if (moved) for (const listener of this.listeners) listener(tenant.tenantId);
    if (moved || placement.moving_to) throw new TenantMovingError();
    throw error;
  }

  private placementOf(tenantId: string): Promise<Placement | undefined> {
    const now = Date.now();
    const known = this.looks.get(tenantId);
    if (known && now - known.at < PLACEMENT_LOOK_MS) return known.placement;
    if (this.looks.size > 1000) this.looks.clear();
    const placement = this.control.query(`SELECT db_server, moving_to FROM ${CONTROL_SCHEMA}.tenants WHERE id = $1`, [tenantId]).then((rows: Placement[]) => rows[0]);
    placement.catch(() => this.looks.delete(tenantId));
    this.looks.set(tenantId, { at: now, placement });
    return placement;
  }
}

interface Placement {
  db_server: string | null;
  moving_to: string | null;
}
