import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable, latestMigrationName, TenantServers } from '../../../libs/tenancy';
import { TENANT_MIGRATIONS } from '../../../migrations/tenant';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantMaker } from './tenant-maker.service';

/** The name a spare carries until it is handed out (the workspace's name replaces it). */
export const SPARE_NAME = 'spare';

/**
 * Tenants made in advance (SERVICE_TENANT_SPARES on each placeable server), so a new workspace is
 * handed one at once instead of waiting about a second for a schema and every tenant migration.
 * A spare is an ordinary `control.tenants` row with status `spare`: its schema and role already
 * carry its id, so handing it out only changes the row. Lists, counts, sweeps and tokens look at
 * `active` tenants only; `npm run migrate` walks every row, spares included, and a spare behind
 * the migrations is not handed out. Instances serving HTTP top the reserve up in the background,
 * one spare at a time, counting before each: several instances at once overshoot by at most one
 * each.
 */
@Injectable()
export class TenantSpares implements BeforeApplicationShutdown {
  private readonly logger = new Logger('tenant-spares');
  private readonly unavailable = new ThrottledLog(this.logger, 60_000);
  private filling: Promise<void> | null = null;
  private again = false;
  private stopping = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly servers: TenantServers,
    private readonly maker: TenantMaker,
    private readonly http: HttpAdapterHost,
  ) {}

  /**
   * Hands out a spare as the workspace `name`, on `placement` when it has one, else on any server
   * new tenants may go to, in one statement (SKIP LOCKED: creations at once each take their own).
   * Returns its id, or undefined when there is none ready.
   */
  async claim(name: string, placement: string | null): Promise<string | undefined> {
    // Whatever SERVICE_TENANT_SPARES says now: spares made before it was lowered to 0 are still handed out.
    if (!this.config.isHosted) return undefined;
    const placements = this.servers.placeable().map((s) => this.servers.placementOf(s.key));
    // Through a CTE: TypeORM answers a bare UPDATE with [rows, count].
    const rows: { id: string }[] = await this.source.query(
      `WITH claimed AS (
         UPDATE control.tenants SET status = 'active', name = $1, created_at = now(), updated_at = now()
          WHERE status = 'spare' AND id = (
            SELECT id FROM control.tenants
             WHERE status = 'spare' AND migrated_to = $3 AND moving_to IS NULL AND db_url_sealed IS NULL
               AND (db_server = ANY($4::text[]) OR ($5 AND db_server IS NULL))
             ORDER BY db_server IS NOT DISTINCT FROM $2 DESC, created_at, id
             LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING id)
       SELECT id FROM claimed`,
      [name, placement, latestMigrationName(TENANT_MIGRATIONS), placements.filter((p) => p !== null), placements.includes(null)],
    );
    return rows[0]?.id;
  }

  /**
   * Tops the reserve up in the background, never blocking the caller. Only instances serving HTTP
   * keep it (a command-line run ends before a spare would be made); one fill runs at a time here,
   * and a call while it runs makes it look again when it ends.
   */
  replenish(): void {
    if (!this.config.isHosted || this.config.tenantSpares === 0 || this.stopping || !this.http.httpAdapter) return;
    if (this.filling) {
      this.again = true;
      return;
    }
    this.filling = this.fill()
      .catch((error: Error) => {
        if (isDatabaseUnavailable(error)) this.unavailable.warn('spare tenants not made: the database is unavailable', { error: error.message });
        else this.logger.error({ msg: 'making a spare tenant failed', error: error.message });
      })
      .finally(() => {
        this.filling = null;
        if (this.again) {
          this.again = false;
          this.replenish();
        }
      });
  }

  /** Waits for the fill running now, if any (tests and benches: the reserve is full when it resolves). */
  async settled(): Promise<void> {
    while (this.filling) await this.filling;
  }

  async beforeApplicationShutdown() {
    this.stopping = true;
    await this.settled();
  }

  /** Makes spares one at a time, each on the placeable server with the fewest, until each holds SERVICE_TENANT_SPARES. */
  private async fill(): Promise<void> {
    while (!this.stopping) {
      const rows: { db_server: string | null; spares: string }[] = await this.source.query(
        "SELECT db_server, count(*) AS spares FROM control.tenants WHERE status = 'spare' GROUP BY db_server",
      );
      const held = new Map(rows.map((r) => [r.db_server, Number(r.spares)]));
      const short = this.servers
        .placeable()
        .map((s) => this.servers.placementOf(s.key))
        .map((placement) => ({ placement, spares: held.get(placement) ?? 0 }))
        .filter((s) => s.spares < this.config.tenantSpares)
        .sort((a, b) => a.spares - b.spares)[0];
      if (!short) return;
      await this.maker.make(randomUUID(), SPARE_NAME, 'spare', short.placement);
    }
  }
}
