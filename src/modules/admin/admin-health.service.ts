import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { DeepHealth, HealthService } from '../health/health.service';
import { EmailQueue, EmailQueueStats } from '../notifications/email-queue.service';

export interface AdminHealth extends DeepHealth {
  mode: AppConfig['mode'];
  database: AppConfig['databaseType'];
  node_version: string;
  started_at: string;
  uptime_s: number;
  memory_mb: { rss: number; heap_used: number };
  /** Hosted: how many workspaces and accounts this instance serves; null self-hosted. */
  workspaces: number | null;
  accounts: number | null;
  /** Outgoing e-mail of this instance since it started: counts and the latest failed sends (kind, recipient domain, error). */
  email: EmailQueueStats;
}

const STARTED_AT = new Date(Date.now() - Math.round(process.uptime() * 1000));

/** GET /admin/health: the deep health check and what an operator reads next (process, counts). Never a tenant's data. */
@Injectable()
export class AdminHealthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly health: HealthService,
    private readonly mail: EmailQueue,
  ) {}

  async report(): Promise<AdminHealth> {
    const deep = await this.health.deep();
    const memory = process.memoryUsage();
    const counts = this.config.isHosted && deep.components.database.status === 'ok' ? await this.counts() : { workspaces: null, accounts: null };
    return {
      ...deep,
      mode: this.config.mode,
      database: this.config.databaseType,
      node_version: process.version,
      started_at: STARTED_AT.toISOString(),
      uptime_s: Math.round(process.uptime()),
      memory_mb: { rss: toMb(memory.rss), heap_used: toMb(memory.heapUsed) },
      ...counts,
      email: this.mail.stats(),
    };
  }

  private async counts(): Promise<{ workspaces: number; accounts: number }> {
    const [row]: { workspaces: string; accounts: string }[] = await this.source.query(
      "SELECT (SELECT count(*) FROM control.tenants WHERE status = 'active') AS workspaces, (SELECT count(*) FROM control.accounts) AS accounts",
    );
    return { workspaces: Number(row.workspaces), accounts: Number(row.accounts) };
  }
}

function toMb(bytes: number): number {
  return Math.round((bytes / 1024 / 1024) * 10) / 10;
}
