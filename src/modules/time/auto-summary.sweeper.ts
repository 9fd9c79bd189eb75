import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { isDatabaseUnavailable, runWithTenant } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { TenantDirectory } from '../tenants/tenant-directory.service';
import { AutoSummaryService } from './auto-summary.service';

/**
 * How long before a cycle its window ends (half the interval when that is shorter): longer than
 * any write takes from stamping its rows to committing them.
 */
export const SETTLE_MS = 30_000;

/**
 * Every SERVICE_AUTO_SUMMARY_INTERVAL seconds, the auto-summary cycle of every tenant. Several
 * instances on one database each try; the claim row of each tenant lets one of them run a cycle
 * per interval (a timer that fires a little early is allowed a slack of a tenth of the interval,
 * at most a second). A cycle's window ends SETTLE_MS before it runs.
 */
@Injectable()
export class AutoSummarySweeper implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('auto-summary');
  private readonly unavailable = new ThrottledLog(this.logger, 60_000);
  private inFlight: Promise<number> | null = null;
  private stopping = false;
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly summaries: AutoSummaryService,
    private readonly tenants: TenantDirectory,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.runOnce().catch((error: Error) => {
        if (isDatabaseUnavailable(error)) this.unavailable.warn('auto-summary skipped: the database is unavailable', { error: error.message });
        else this.logger.error({ msg: 'auto-summary failed', error: error.message, stack: error.stack });
      });
    }, this.config.autoSummaryIntervalS * 1000);
    this.timer.unref();
  }

  async beforeApplicationShutdown() {
    this.stopping = true;
    clearInterval(this.timer);
    await this.inFlight?.catch(() => 0);
  }

  /** One cycle over every tenant; returns how many summaries were written. */
  async runOnce(): Promise<number> {
    if (this.inFlight || this.stopping) return 0;
    this.inFlight = this.cycle();
    try {
      return await this.inFlight;
    } finally {
      this.inFlight = null;
    }
  }

  private async cycle(): Promise<number> {
    const intervalMs = this.config.autoSummaryIntervalS * 1000;
    const slackMs = Math.min(1000, intervalMs / 10);
    const settleMs = Math.min(SETTLE_MS, intervalMs / 2);
    let total = 0;
    for (const tenant of await this.tenants.listContexts()) {
      if (this.stopping) break;
      try {
        total += (await runWithTenant(tenant, () => this.summaries.runCycle(this.clock.now(), intervalMs, slackMs, settleMs))) ?? 0;
      } catch (error) {
        if (isDatabaseUnavailable(error)) this.unavailable.warn('auto-summary skipped tenants: their database is unavailable', { error: (error as Error).message });
        else this.logger.error({ msg: 'auto-summary failed for a tenant', tenant_id: tenant.tenantId, error: (error as Error).message });
      }
    }
    return total;
  }
}
