import { Inject, Injectable } from '@nestjs/common';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { REDIS_CLIENT } from '../../cache/redis.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { SHARED_DATA_SOURCE } from '../../database/database.module';
import { TenantServers } from '../../../libs/tenancy';

type ComponentStatus = { status: 'ok' | 'down'; latency_ms: number; error?: string };

export interface DeepHealth {
  status: 'ok' | 'degraded';
  service: 'baton';
  version: string;
  git_sha: string;
  components: Record<string, ComponentStatus>;
}

const PROBE_TIMEOUT_MS = 2000;

@Injectable()
export class HealthService {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(SHARED_DATA_SOURCE) private readonly source: DataSource,
    @Inject(REDIS_CLIENT) private readonly redis: Redis | null,
    private readonly servers: TenantServers,
  ) {}

  async deep(): Promise<DeepHealth> {
    const components: Record<string, ComponentStatus> = {
      database: await probe(() => this.source.query('SELECT 1')),
    };
    // Each other server holding tenant schemas, by its place in SERVICE_TENANT_DB_URLS (hosts stay private).
    const others = this.servers.list().filter((server) => !server.control);
    const probes = await Promise.all(others.map((server) => probe(async () => (await this.servers.source(server.key)).query('SELECT 1'))));
    others.forEach((server, i) => (components[`tenant_server_${server.place}`] = probes[i]));
    if (this.redis) components.cache = await probe(() => (this.redis as Redis).ping());
    const ok = Object.values(components).every((c) => c.status === 'ok');
    return {
      status: ok ? 'ok' : 'degraded',
      service: 'baton',
      version: this.config.version,
      git_sha: this.config.gitSha,
      components,
    };
  }
}

/** Runs one probe with a deadline; reports the error class only (messages can carry hosts or users). */
async function probe(check: () => Promise<unknown>): Promise<ComponentStatus> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })), PROBE_TIMEOUT_MS);
      }),
    ]);
    return { status: 'ok', latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    const e = error as Error & { code?: string };
    return { status: 'down', latency_ms: Math.round(performance.now() - started), error: e.code ?? e.name };
  } finally {
    clearTimeout(timer);
  }
}
