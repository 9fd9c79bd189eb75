import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { parse } from 'pg-connection-string';
import { DataSourceOptions } from 'typeorm';
import type { CheckedTarget } from '../../libs/outbound-guard';
import type { TenantDbLimits } from '../../libs/tenancy';
import { AppConfig } from '../config/app-config';
import { CONTROL_ENTITIES } from './control-entities';
import { TENANT_ENTITIES } from './tenant-entities';

/** How long a request waits for a connection (from the pool, or within its tenant's share). */
const CONNECT_TIMEOUT_MS = 5000;

/** Connection-string parameters a BYODB URL may carry; others (file paths for certificates, a socket `host`) are refused. */
const BYODB_URL_PARAMETERS = new Set(['ssl', 'sslmode', 'application_name']);

/** The host a BYODB URL names, for the outbound guard; throws on parameters Baton does not accept there. */
export function byodbHost(url: string): string {
  const parsed = new URL(url);
  for (const key of parsed.searchParams.keys()) {
    if (!BYODB_URL_PARAMETERS.has(key)) throw new Error(`the connection parameter ${key} is not accepted`);
  }
  const host = parse(url).host;
  if (!host || host.startsWith('/')) throw new Error('the URL names no network host');
  return host;
}

/**
 * Connection fields of `url` sent to the checked address rather than to the
 * name: the name stays the TLS server name, so the certificate is still
 * verified against it, while DNS is not asked again.
 */
function pinnedConnection(url: string, target: CheckedTarget): Record<string, unknown> {
  const { host: _name, ssl, ...rest } = parse(url);
  const pinnedSsl = ssl ? { ...(typeof ssl === 'object' ? ssl : {}), servername: target.host } : ssl;
  return { ...rest, host: target.address, ssl: pinnedSsl, connectionString: undefined };
}

/**
 * Options of a Postgres data source (the shared cluster, or one BYODB database).
 * With `pinned` (BYODB), the connection goes to the address the outbound guard checked.
 */
export function postgresOptions(url: string, poolSize: number, withControlPlane: boolean, pinned?: CheckedTarget, connectTimeoutMs = CONNECT_TIMEOUT_MS): DataSourceOptions {
  return {
    type: 'postgres',
    ...(pinned ? {} : { url }),
    entities: withControlPlane ? [...TENANT_ENTITIES, ...CONTROL_ENTITIES] : TENANT_ENTITIES,
    synchronize: false,
    migrationsRun: false,
    installExtensions: false,
    logging: false,
    poolSize,
    extra: {
      ...(pinned ? pinnedConnection(url, pinned) : {}),
      max: poolSize,
      connectionTimeoutMillis: connectTimeoutMs,
      idleTimeoutMillis: 30000,
      application_name: 'baton',
    },
  };
}

/**
 * Options of a pool that serves tenant schemas (the shared one, or another server's), whose
 * connections are replaced after `SERVICE_DB_CONNECTION_LIFETIME_S` (pg's `maxLifetimeSeconds`).
 */
export function tenantServerOptions(config: AppConfig, url: string, withControlPlane: boolean): DataSourceOptions {
  const options = postgresOptions(url, config.dbPoolSize, withControlPlane) as DataSourceOptions & { extra: Record<string, unknown> };
  return { ...options, extra: { ...options.extra, maxLifetimeSeconds: config.dbConnectionLifetimeSeconds } };
}

/** Options of the shared data source this process talks to. */
export function sharedDataSourceOptions(config: AppConfig): DataSourceOptions {
  if (config.dbUrl) return tenantServerOptions(config, config.dbUrl, config.isHosted);
  mkdirSync(dirname(config.sqlitePath), { recursive: true });
  return {
    type: 'better-sqlite3',
    database: config.sqlitePath,
    entities: TENANT_ENTITIES,
    synchronize: false,
    migrationsRun: false,
    logging: false,
    enableWAL: true,
    prepareDatabase: (db: { pragma: (s: string) => unknown }) => {
      db.pragma('foreign_keys = ON');
      db.pragma('busy_timeout = 5000');
      db.pragma('synchronous = NORMAL');
    },
  };
}

/** A frozen server cancels nothing: the client waits this much longer than the statement timeout before it gives up. */
const CLIENT_GRACE_MS = 2000;

/**
 * The bounds on tenant work: every statement's timeout, the client's own, and (hosted, where
 * tenants share one pool) each tenant's share of the pool. Work waits for a place in its share
 * as long as for a pool connection.
 */
export function tenantDbLimits(config: AppConfig): TenantDbLimits {
  const statementTimeoutMs = config.dbStatementTimeoutSeconds * 1000;
  return {
    statementTimeoutMs,
    queryTimeoutMs: statementTimeoutMs + CLIENT_GRACE_MS,
    tenantSharePercent: config.isHosted ? config.dbTenantShare : 100,
    shareWaitMs: CONNECT_TIMEOUT_MS,
    preparedStatements: config.dbPreparedStatements === 'on',
  };
}
