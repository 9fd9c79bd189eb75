import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable, runWithTenant } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { HeldLock, tryLockFor } from '../../database/lock-transaction';
import { TenantDirectory } from '../tenants/tenant-directory.service';
import { FileLocksService } from './file-locks.service';
import { SessionsService } from './sessions.service';

/** Advisory lock key: one instance sweeps at a time on a shared Postgres. */
export const SWEEP_LOCK = 0x73776570; // "swep"

/**
 * Closes sessions that stopped talking (no heartbeat or call for
 * SERVICE_SESSION_TIMEOUT_SECONDS) in every tenant, every
 * SERVICE_SWEEP_INTERVAL_SECONDS, and removes the file locks that lapsed under
 * live sessions, telling each holder (lock_expired). With several instances on one Postgres, a
 * transaction-scoped advisory lock (`tryLockFor`, safe behind a transaction-mode pooler) lets
 * one of them sweep; each close is conditional anyway.
 * On shutdown the sweep in progress stops after its current tenant and is
 * waited for before the database connections close.
 */
@Injectable()
export class SessionsSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('sessions-sweeper');
  private readonly unavailable = new ThrottledLog(this.logger, 60_000);
  private inFlight: Promise<number> | null = null;
  private stopping = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly sessions: SessionsService,
    private readonly fileLocks: FileLocksService,
    private readonly tenants: TenantDirectory,
    private readonly clock: Clock,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    if (this.config.sweepIntervalS === 0) return;
    this.timer = setInterval(() => {
      this.sweepOnce().catch((error: Error) => {
        if (isDatabaseUnavailable(error)) this.unavailable.warn('session sweep skipped: the database is unavailable', { error: error.message });
        else this.logger.error({ msg: 'session sweep failed', error: error.message, stack: error.stack });
      });
    }, this.config.sweepIntervalS * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown() {
    this.stopping = true;
    clearInterval(this.timer);
    await this.inFlight?.catch(() => 0);
  }

  /** One sweep over every tenant; returns how many sessions it closed (0 when another instance holds the sweep). */
  async sweepOnce(): Promise<number> {
    if (this.inFlight || this.stopping) return 0;
    this.inFlight = this.sweepAllTenants();
    try {
      return await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  private async sweepAllTenants(): Promise<number> {
    let lock: HeldLock | null = null;
    if (this.config.databaseType === 'postgres') {
      lock = await tryLockFor(this.source, '$1', [SWEEP_LOCK], 'baton session sweep');
      if (!lock) return 0;
    }
    try {
      const cutoff = new Date(this.clock.now().getTime() - this.config.sessionTimeoutS * 1000);
      let total = 0;
      for (const tenant of await this.tenants.listContexts()) {
        if (this.stopping) break;
        try {
          total += await runWithTenant(tenant, () => this.sessions.sweep(cutoff));
          // Then the locks that lapsed under sessions still live: each holder is told once.
          await runWithTenant(tenant, () => this.fileLocks.sweepLapsed());
        } catch (error) {
          if (isDatabaseUnavailable(error)) this.unavailable.warn('session sweep skipped tenants: their database is unavailable', { error: (error as Error).message });
          else this.logger.error({ msg: 'session sweep failed for a tenant', tenant_id: tenant.tenantId, error: (error as Error).message });
        }
      }
      if (total > 0) this.logger.log({ msg: 'closed silent sessions', count: total });
      return total;
    } finally {
      await lock?.release();
    }
  }
}
