/** No connection of a tenant's share freed within the wait: the database is too busy to serve it now. */
export class DatabaseBusyError extends Error {
  readonly code = 'DATABASE_BUSY';

  constructor(waitedMs: number) {
    super(`no database connection came free within ${waitedMs} ms`);
    this.name = 'DatabaseBusyError';
  }
}

/** The request's deadline passed (or leaves no time for another statement): no more database work is started for it. */
export class DeadlinePassedError extends Error {
  readonly code = 'DEADLINE_EXCEEDED';

  constructor() {
    super('the request reached its deadline before this database work could run');
    this.name = 'DeadlinePassedError';
  }
}

/**
 * A tenant's own database (BYODB) that Baton refuses to open now: the name it was connected by
 * resolves to an address the operator does not allow any more. Retrying does not help; connecting
 * the database again (`connect-db`) does.
 */
export class OwnDatabaseRefusedError extends Error {
  readonly code = 'DATABASE_REFUSED';

  constructor(reason: string) {
    super(`this workspace's own database is refused: ${reason}; connect it again with POST /workspace/connect-db`);
    this.name = 'OwnDatabaseRefusedError';
  }
}

interface Share {
  active: number;
  waiting: (() => void)[];
}

/**
 * At most `limit` units of work of one tenant hold a connection of a shared pool
 * at once. The rest wait in the tenant's own line, first come first served, not
 * in the pool's, so a tenant whose work is slow or stuck (long waits, slow
 * statements, a frozen database) ties up its share and no more: the other
 * tenants' work still finds connections. A wait longer than allowed (the
 * caller's bound, else `maxWaitMs`) fails with `DatabaseBusyError`.
 */
export class TenantShare {
  private readonly shares = new Map<string, Share>();

  constructor(
    readonly limit: number,
    private readonly maxWaitMs: number,
  ) {}

  /** Runs `work` in `tenant`'s share, waiting for a place at most `maxWaitMs` (default: the share's own). */
  async run<T>(tenant: string, work: () => Promise<T>, maxWaitMs = this.maxWaitMs): Promise<T> {
    let share = this.shares.get(tenant);
    if (!share) this.shares.set(tenant, (share = { active: 0, waiting: [] }));
    if (share.active >= this.limit) await this.wait(share, maxWaitMs);
    else share.active++;
    try {
      return await work();
    } finally {
      this.leave(tenant, share);
    }
  }

  /** Units of work of `tenant` running now (for tests and diagnostics). */
  activeOf(tenant: string): number {
    return this.shares.get(tenant)?.active ?? 0;
  }

  /** Resolves once a place of the share is handed over (counted already), or fails after `maxWaitMs`. */
  private wait(share: Share, maxWaitMs: number): Promise<void> {
    return new Promise((resolve, reject) => {
      const enter = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = share.waiting.indexOf(enter);
        if (index !== -1) share.waiting.splice(index, 1);
        reject(new DatabaseBusyError(maxWaitMs));
      }, maxWaitMs);
      share.waiting.push(enter);
    });
  }

  /** A place is freed: the next in line takes it over, or the count drops. */
  private leave(tenant: string, share: Share) {
    const next = share.waiting.shift();
    if (next) return next();
    share.active--;
    if (share.active === 0) this.shares.delete(tenant);
  }
}
