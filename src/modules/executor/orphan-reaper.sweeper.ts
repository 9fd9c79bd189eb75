import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { isDatabaseUnavailable, runWithTenant } from '../../../libs/tenancy';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TenantDirectory } from '../tenants/tenant-directory.service';
import { OrphanReaperService } from './orphan-reaper.service';

/**
 * Runs every project's orphan reaper in every tenant, every
 * SERVICE_ORPHAN_REAPER_INTERVAL_SECONDS. Unlike the session sweeper's
 * advisory lock, which only keeps two instances from sweeping at the same
 * moment, each project's pass takes a lease row (OrphanReaperService.passIfDue),
 * so with several instances on one database a project is reaped once per
 * interval, not once per instance. The pass in progress is waited for on shutdown.
 */
@Injectable()
export class OrphanReaperSweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('orphan-reaper');
  private readonly unavailable = new ThrottledLog(this.logger, 60_000);
  private inFlight: Promise<number> | null = null;
  private stopping = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly reaper: OrphanReaperService,
    private readonly tenants: TenantDirectory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    if (this.config.orphanReaperIntervalS === 0) return;
    this.timer = setInterval(() => {
      this.passOnce().catch((error: Error) => {
        if (isDatabaseUnavailable(error)) this.unavailable.warn('orphan reaper skipped: the database is unavailable', { error: error.message });
        else this.logger.error({ msg: 'orphan reaper failed', error: error.message, stack: error.stack });
      });
    }, this.config.orphanReaperIntervalS * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown() {
    this.stopping = true;
    clearInterval(this.timer);
    await this.inFlight?.catch(() => 0);
  }

  /** One pass over every due project of every tenant; answers how many projects this process reaped. */
  async passOnce(): Promise<number> {
    if (this.inFlight || this.stopping) return 0;
    this.inFlight = this.passAllTenants();
    try {
      return await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  private async passAllTenants(): Promise<number> {
    let reaped = 0;
    for (const tenant of await this.tenants.listContexts()) {
      if (this.stopping) break;
      try {
        reaped += await runWithTenant(tenant, async () => {
          let count = 0;
          for (const projectId of await this.reaper.projectIds()) {
            if (this.stopping) break;
            if (await this.reaper.passIfDue(projectId)) count++;
          }
          return count;
        });
      } catch (error) {
        if (isDatabaseUnavailable(error)) this.unavailable.warn('orphan reaper skipped tenants: their database is unavailable', { error: (error as Error).message });
        else this.logger.error({ msg: 'orphan reaper failed for a tenant', tenant_id: tenant.tenantId, error: (error as Error).message });
      }
    }
    return reaped;
  }
}
