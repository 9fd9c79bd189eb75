import { Inject, Injectable } from '@nestjs/common';
import { accessSync, constants } from 'node:fs';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { PushService } from '../push/push.service';

/** How long a database probe's answer is reused: the route may be polled by a load balancer. */
const PROBE_TTL_MS = 2000;

/** Redis states in which messaging has fallen back to polling (idle or unverified: not yet used, not down). */
const PUBSUB_DOWN: readonly string[] = ['unreachable', 'construction_failed', 'degraded'];

export type FailoverReason = 'pubsub_polling' | 'database_read_only' | 'database_unreachable';

export interface FailoverStatus {
  failover: boolean;
  reasons: FailoverReason[];
  pubsub: { configured: boolean; availability: string; messaging: 'push' | 'polling' };
  database: { type: string; read_only: boolean; reachable: boolean; checked_at: string };
}

/**
 * GET /failover-status: whether this instance serves degraded. Degraded means
 * a configured Redis is not reachable, so messaging falls back to polling the
 * database, or the database refuses writes (a standby in recovery, a
 * read-only default, an unwritable SQLite file), or does not answer. An
 * instance without Redis configured polls by design: that is not failover.
 */
@Injectable()
export class FailoverService {
  private probe?: { at: number; readOnly: boolean; reachable: boolean };

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    private readonly push: PushService,
  ) {}

  async status(): Promise<FailoverStatus> {
    const adapter = this.push.adapter;
    const pushLive = adapter.live;
    const db = await this.database();
    const reasons: FailoverReason[] = [];
    if (adapter.configured && PUBSUB_DOWN.includes(adapter.state)) reasons.push('pubsub_polling');
    if (!db.reachable) reasons.push('database_unreachable');
    else if (db.readOnly) reasons.push('database_read_only');
    return {
      failover: reasons.length > 0,
      reasons,
      pubsub: { configured: adapter.configured, availability: adapter.state, messaging: pushLive ? 'push' : 'polling' },
      database: { type: this.config.databaseType, read_only: db.readOnly, reachable: db.reachable, checked_at: new Date(db.at).toISOString() },
    };
  }

  private async database(): Promise<{ at: number; readOnly: boolean; reachable: boolean }> {
    if (this.probe && Date.now() - this.probe.at < PROBE_TTL_MS) return this.probe;
    let readOnly = false;
    let reachable = true;
    try {
      if (this.config.databaseType === 'postgres') {
        const [row] = (await this.source.query("SELECT pg_is_in_recovery() AS recovery, current_setting('default_transaction_read_only') AS ro")) as {
          recovery: boolean;
          ro: string;
        }[];
        readOnly = row.recovery || row.ro === 'on';
      } else {
        const [row] = (await this.source.query('PRAGMA query_only')) as { query_only: number }[];
        readOnly = row.query_only === 1 || !writable(this.config.sqlitePath);
      }
    } catch {
      reachable = false;
    }
    this.probe = { at: Date.now(), readOnly, reachable };
    return this.probe;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
