import { Inject, Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RegisteredTool, ToolRegistry } from './tool-registry.service';
import { DOMAIN_TOOLSETS, TOOLSETS, ToolsetDefinition } from './toolsets';

const MAX_KEPT_LISTINGS = 64;

/** One toolset as list_toolsets answers it. */
export interface ToolsetSummary {
  name: string;
  description: string;
  tool_count: number;
  /** Every tool of the toolset is in this connection's listing. */
  enabled: boolean;
}

/**
 * The toolsets over the registered tools: which tools a selection lists, and
 * the boot-time check that every tool belongs to exactly one domain toolset.
 * Listings are computed once per selection: the registry does not change
 * after boot and `tools/list` is answered on every connect.
 */
@Injectable()
export class McpToolsets implements OnApplicationBootstrap {
  private readonly listings = new Map<string, RegisteredTool[]>();

  constructor(
    private readonly registry: ToolRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap() {
    const problem = this.coverageProblem();
    if (problem) throw new Error(problem);
  }

  /** The selection of a connection that names none (`SERVICE_MCP_TOOLSETS`). */
  get defaults(): readonly string[] {
    return this.config.mcpToolsets;
  }

  /**
   * Why the domain toolsets do not split the registered tools, or undefined:
   * a registered tool in no domain toolset (it would be listed only by `all`)
   * or in two of them.
   */
  coverageProblem(): string | undefined {
    const homes = new Map<string, string[]>();
    for (const toolset of DOMAIN_TOOLSETS) for (const tool of toolset.tools ?? []) homes.set(tool, [...(homes.get(tool) ?? []), toolset.name]);
    const registered = this.registry.list().map((t) => t.name);
    const homeless = registered.filter((name) => !homes.has(name));
    const twice = registered.filter((name) => (homes.get(name)?.length ?? 0) > 1);
    const problems = [
      homeless.length ? `MCP tools in no domain toolset (add each to one in src/mcp/toolsets.ts): ${homeless.join(', ')}` : undefined,
      twice.length ? `MCP tools in more than one domain toolset: ${twice.map((name) => `${name} (${homes.get(name)?.join(', ')})`).join('; ')}` : undefined,
    ].filter(Boolean);
    return problems.length ? problems.join('\n') : undefined;
  }

  /** The registered tools of one toolset, sorted by name. */
  toolsOf(toolset: string): RegisteredTool[] {
    return this.listing([toolset]);
  }

  /** The registered tools a selection lists, sorted by name: the union of its toolsets. */
  listing(toolsets: readonly string[]): RegisteredTool[] {
    const key = [...toolsets].sort().join(',');
    let tools = this.listings.get(key);
    if (!tools) {
      const definitions = toolsets.map((name) => TOOLSETS.find((t) => t.name === name)).filter((t): t is ToolsetDefinition => t !== undefined);
      const names = definitions.some((t) => t.tools === undefined) ? undefined : new Set(definitions.flatMap((t) => t.tools ?? []));
      tools = this.registry.list().filter((tool) => names === undefined || names.has(tool.name));
      // Clients choose the selections: past a few dozen, a new one is computed and not kept.
      if (this.listings.size < MAX_KEPT_LISTINGS) this.listings.set(key, tools);
    }
    return tools;
  }

  /** Every toolset, and whether the selection lists all of its tools. */
  summaries(toolsets: readonly string[]): ToolsetSummary[] {
    const listed = new Set(this.listing(toolsets).map((t) => t.name));
    return TOOLSETS.map((toolset) => {
      const tools = this.toolsOf(toolset.name);
      return { name: toolset.name, description: toolset.description, tool_count: tools.length, enabled: tools.every((t) => listed.has(t.name)) };
    });
  }
}
