import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { currentTenant } from '../../../libs/tenancy';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { McpServerFactory } from '../../mcp/mcp-server.factory';
import { mcpSdk } from '../../mcp/sdk';
import { ToolRegistry } from '../../mcp/tool-registry.service';
import { VENDOR_INSTRUCTIONS, VENDOR_TOOLS } from './vendor.constants';

interface TenantCounters {
  requests: number;
  tool_calls: number;
  tool_errors: number;
  refused_tools: number;
  last_call_at: Date | null;
  last_error_code: string | null;
  last_error_at: Date | null;
}

const fresh = (): TenantCounters => ({ requests: 0, tool_calls: 0, tool_errors: 0, refused_tools: 0, last_call_at: null, last_error_code: null, last_error_at: null });

/**
 * The vendor adapter behind `POST /mcp/vendor`: an MCP server that lists and
 * runs only VENDOR_TOOLS, each call going through the main server's `call`
 * (same validation, read-only-token refusal and AI-log record). It counts
 * what each tenant did with it in this process, for
 * `POST /tunnel/vendor/diagnostics/{tenant_id}`.
 */
@Injectable()
export class VendorAdapter implements OnApplicationBootstrap {
  private readonly counters = new Map<string, TenantCounters>();
  private readonly startedAt = new Date();

  constructor(
    private readonly registry: ToolRegistry,
    private readonly servers: McpServerFactory,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    const missing = VENDOR_TOOLS.filter((name) => !this.registry.get(name));
    if (missing.length) throw new Error(`/mcp/vendor offers tools that do not exist: ${missing.join(', ')}`);
  }

  get tools(): string[] {
    return [...VENDOR_TOOLS];
  }

  /** A server for one stateless request. */
  create(): Server {
    const { Server, ListToolsRequestSchema, CallToolRequestSchema } = mcpSdk();
    const server = new Server({ name: 'baton-vendor', version: this.config.version }, { capabilities: { tools: { listChanged: false } }, instructions: VENDOR_INSTRUCTIONS });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: VENDOR_TOOLS.map((name) => this.registry.get(name)!).map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: t.annotations,
        outputSchema: t.outputSchema,
      })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => this.call(request.params.name, request.params.arguments));
    return server;
  }

  noteRequest(): void {
    this.countersOf(currentTenant().tenantId).requests++;
  }

  private async call(name: string, args: unknown): Promise<CallToolResult> {
    const counters = this.countersOf(currentTenant().tenantId);
    counters.last_call_at = new Date();
    if (!(VENDOR_TOOLS as readonly string[]).includes(name)) {
      counters.refused_tools++;
      const detail = `the tool ${name.slice(0, 80)} is not offered on /mcp/vendor (tools/list names the ones that are); use /mcp for Baton's full tool set`;
      return { isError: true, content: [{ type: 'text', text: detail }], structuredContent: { detail, code: 'VENDOR_TOOL_NOT_OFFERED' } };
    }
    counters.tool_calls++;
    const result = await this.servers.call(name, args);
    if (result.isError) {
      counters.tool_errors++;
      counters.last_error_code = String((result.structuredContent as { code?: unknown } | undefined)?.code ?? 'ERROR');
      counters.last_error_at = new Date();
    }
    return result;
  }

  /** The adapter's state for one tenant: what it offers and what this instance has seen of it. */
  diagnostics(tenantId: string, base: string) {
    const c = this.counters.get(tenantId) ?? fresh();
    const now = Date.now();
    const age = (at: Date | null) => (at ? Math.round((now - at.getTime()) / 100) / 10 : null);
    return {
      tenant_id: tenantId,
      generated_at: new Date(now).toISOString(),
      vendor: {
        adapter: 'mcp_vendor',
        enabled: true,
        endpoint: `${base}/mcp/vendor`,
        transport: 'streamable_http_stateless',
        auth: this.config.isHosted ? 'bearer' : 'none (self-hosted local)',
        tools: this.tools,
        tool_count: VENDOR_TOOLS.length,
        counters_since: this.startedAt.toISOString(),
        requests: c.requests,
        tool_calls: c.tool_calls,
        tool_errors: c.tool_errors,
        refused_tools: c.refused_tools,
        last_call_age_seconds: age(c.last_call_at),
        last_error_code: c.last_error_code,
        last_error_age_seconds: age(c.last_error_at),
      },
    };
  }

  private countersOf(tenantId: string): TenantCounters {
    let counters = this.counters.get(tenantId);
    if (!counters) this.counters.set(tenantId, (counters = fresh()));
    return counters;
  }
}
