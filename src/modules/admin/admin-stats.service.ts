import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { budgetCountKey, monthOf } from '../../../libs/pubsub';
import { REDIS_CLIENT } from '../../cache/redis.module';
import { DataSource } from 'typeorm';
import { CONTROL_SCHEMA, LOCAL_SCHEMA, quoteIdent, TenantServers } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';

export interface AdminStats {
  /** Active workspaces (self-hosted: the one local workspace). */
  workspaces: number;
  /** Accounts that can sign in; null self-hosted, where no one has an account. */
  accounts: number | null;
  /** Agent sessions now active, over the workspaces counted. */
  active_sessions: number;
  /** Tool calls of the AI-log per UTC day, the last 14 days, oldest first. */
  tool_calls_per_day: { day: string; calls: number }[];
  /** Hosted: workspaces kept in their own database (BYODB), whose figures are not counted here. */
  not_counted: number;
  /**
   * Hosted with Redis: each workspace's push messages this month against the budget's thresholds,
   * busiest first (workspaces that sent none are left out); null self-hosted or without Redis.
   */
  push_budget: { tenant_id: string; month: string; count: number; tier: 'ok' | 'warning' | 'disabled' | 'admin_alert' }[] | null;
}

const DAYS = 14;

/** GET /admin/stats: counts over the instance, read from the servers holding tenant schemas (never a workspace's own database). */
@Injectable()
export class AdminStatsService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    private readonly servers: TenantServers,
  ) {}

  async report(): Promise<AdminStats> {
    const since = new Date(Date.now() - (DAYS - 1) * 86_400_000);
    since.setUTCHours(0, 0, 0, 0);
    if (this.config.databaseType === 'sqlite') return this.local('', since);
    if (!this.config.isHosted) return this.local(`${quoteIdent(LOCAL_SCHEMA)}.`, since);
    const tenants: { id: string; schema_name: string; own_db: boolean; db_server: string | null }[] = await this.source.query(
      `SELECT id, schema_name, db_url_sealed IS NOT NULL AS own_db, db_server FROM ${CONTROL_SCHEMA}.tenants WHERE status = 'active' ORDER BY created_at`,
    );
    // Schemas are counted on the server each is placed on: one query of each kind per server.
    const byServer = new Map<string | null, string[]>();
    for (const t of tenants.filter((t) => !t.own_db)) byServer.set(t.db_server, [...(byServer.get(t.db_server) ?? []), `${quoteIdent(t.schema_name)}.`]);
    const [accounts] = await this.source.query(`SELECT count(*) AS n FROM ${CONTROL_SCHEMA}.accounts`);
    let activeSessions = 0;
    const calls: { day: string; n: string | number }[] = [];
    for (const [server, schemas] of byServer) {
      const source = await this.servers.source(server);
      const [sessions] = await source.query(
        `SELECT sum(n) AS n FROM (${schemas.map((s) => `SELECT count(*) AS n FROM ${s}sessions WHERE status = 'active'`).join(' UNION ALL ')}) x`,
      );
      activeSessions += Number(sessions.n ?? 0);
      calls.push(
        ...(await source.query(
          `SELECT day, sum(n) AS n FROM (${schemas.map((s) => `SELECT to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*) AS n FROM ${s}ai_log_events WHERE kind = 'tool_call' AND occurred_at >= $1 GROUP BY 1`).join(' UNION ALL ')}) x GROUP BY day`,
          [since],
        )),
      );
    }
    const counted = [...byServer.values()].reduce((n, schemas) => n + schemas.length, 0);
    return {
      workspaces: tenants.length,
      accounts: Number(accounts.n),
      active_sessions: activeSessions,
      tool_calls_per_day: perDay(calls, since),
      not_counted: tenants.length - counted,
      push_budget: await this.pushBudgets(tenants.map((t) => t.id)),
    };
  }

  /** Read from the counters the push path keeps in Redis (one MGET); no tier is claimed or fired from here. */
  private async pushBudgets(tenantIds: string[]): Promise<AdminStats['push_budget']> {
    if (!this.redis) return null;
    if (tenantIds.length === 0) return [];
    const month = monthOf(new Date());
    let counts: (string | null)[];
    try {
      counts = await this.redis.mget(tenantIds.map((id) => budgetCountKey(this.config.pubsubPrefix, id, month)));
    } catch {
      return null; // Redis unreachable: the figure is unknown, the rest of the report stands
    }
    const { pushBudgetWarning: warning, pushBudgetDisable: disable, pushBudgetAdminAlert: alert } = this.config;
    const tierOf = (count: number) => (count >= alert ? 'admin_alert' : count >= disable ? 'disabled' : count >= warning ? 'warning' : 'ok');
    return tenantIds
      .map((tenant_id, i) => ({ tenant_id, month, count: Number(counts[i] ?? 0) }))
      .filter((b) => b.count > 0)
      .sort((a, b) => b.count - a.count)
      .map((b) => ({ ...b, tier: tierOf(b.count) }));
  }

  private async local(prefix: string, since: Date): Promise<AdminStats> {
    const sqlite = prefix === '';
    const [sessions] = await this.source.query(`SELECT count(*) AS n FROM ${prefix}sessions WHERE status = 'active'`);
    const day = sqlite ? 'substr(occurred_at, 1, 10)' : "to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')";
    const calls = await this.source.query(
      `SELECT ${day} AS day, count(*) AS n FROM ${prefix}ai_log_events WHERE kind = 'tool_call' AND occurred_at >= ${sqlite ? '?' : '$1'} GROUP BY 1`,
      [sqlite ? since.toISOString().replace('T', ' ').replace('Z', '') : since],
    );
    return { workspaces: 1, accounts: null, active_sessions: Number(sessions.n), tool_calls_per_day: perDay(calls, since), not_counted: 0, push_budget: null };
  }
}

function perDay(rows: { day: string; n: string | number }[], since: Date): { day: string; calls: number }[] {
  const counts = new Map(rows.map((r) => [r.day, Number(r.n)]));
  return Array.from({ length: DAYS }, (_, i) => {
    const day = new Date(since.getTime() + i * 86_400_000).toISOString().slice(0, 10);
    return { day, calls: counts.get(day) ?? 0 };
  });
}
