import { Inject, Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RegistryQueryDto } from './dto/registry-query.dto';
import { TunnelError } from './tunnel.errors';

const MAX_CACHED = 200;
const MAX_BODY = 2 * 1024 * 1024;

/**
 * GET /tunnel/registry: the public MCP registry's server list (`/v0/servers`), fetched with a
 * timeout and kept for a while per query, so the dashboard's plugin picker does not wait on it
 * twice. The registry's URL is the operator's (SERVICE_MCP_REGISTRY_URL), never the caller's.
 */
@Injectable()
export class TunnelRegistryService {
  private readonly cache = new Map<string, { at: number; body: unknown }>();

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  async list(query: RegistryQueryDto): Promise<{ source: string; cached: boolean; fetched_at: string; registry: unknown }> {
    const params = new URLSearchParams();
    if (query.search) params.set('search', query.search);
    if (query.cursor) params.set('cursor', query.cursor);
    params.set('limit', String(query.limit ?? 30));
    const url = `${this.config.mcpRegistryUrl}/v0/servers?${params}`;
    const hit = this.cache.get(url);
    if (hit && Date.now() - hit.at < this.config.mcpRegistryCacheS * 1000) {
      return { source: this.config.mcpRegistryUrl, cached: true, fetched_at: new Date(hit.at).toISOString(), registry: hit.body };
    }
    const body = await this.fetch(url);
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value as string);
    const at = Date.now();
    this.cache.set(url, { at, body });
    return { source: this.config.mcpRegistryUrl, cached: false, fetched_at: new Date(at).toISOString(), registry: body };
  }

  private async fetch(url: string): Promise<unknown> {
    const timeoutS = this.config.mcpRegistryTimeoutMs / 1000;
    let res: Response;
    try {
      res = await fetch(url, { headers: { accept: 'application/json' }, redirect: 'error', signal: AbortSignal.timeout(this.config.mcpRegistryTimeoutMs) });
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') throw TunnelError.timeout(`the MCP registry did not answer within ${timeoutS} s: try again later`);
      throw TunnelError.upstream(`the MCP registry could not be reached (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name}): try again later`);
    }
    if (!res.ok) throw TunnelError.upstream(`the MCP registry answered ${res.status}: try again later`);
    const text = await res.text();
    if (text.length > MAX_BODY) throw TunnelError.upstream('the MCP registry answered more than 2 MiB');
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw TunnelError.upstream('the MCP registry answered something other than JSON');
    }
  }
}
