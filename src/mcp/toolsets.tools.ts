import { Injectable } from '@nestjs/common';
import { RequestError } from '../common/errors/request-error';
import { EnableToolsetDto } from './dto/enable-toolset.dto';
import { currentMcpConnection } from './mcp-connection';
import { McpTool } from './mcp-tool.decorator';
import { McpToolsets, ToolsetSummary } from './mcp-toolsets.service';
import { IDEMPOTENT_UPDATE, READ_ONLY } from './tool-annotations';
import { JsonSchemaObject } from './tool-registry.service';
import { output } from './tool-schema';
import { TOOLSET_NAMES } from './toolsets';

const SELECT_HINT = 'to list toolsets from the start, connect to /mcp?toolsets=core,<name> (or /mcp/sse?toolsets=...), or send the header X-MCP-Toolsets: core,<name>';

interface ToolsetList {
  /** The toolsets this connection lists. */
  selected: readonly string[];
  toolsets: ToolsetSummary[];
  note: string;
}

interface EnabledToolset {
  toolset: string;
  /** The tools the toolset added to the listing. */
  added_tools: string[];
  /** Stateless requests only: the added tools as tools/list would give them, to call at once. */
  tools?: { name: string; description: string; inputSchema: JsonSchemaObject }[];
  note: string;
}

/** The MCP tools that show and widen a connection's listing (see src/mcp/toolsets.ts). */
@Injectable()
export class ToolsetTools {
  constructor(private readonly toolsets: McpToolsets) {}

  @McpTool({
    name: 'list_toolsets',
    annotations: READ_ONLY,
    outputSchema: output({ selected: 'array', toolsets: 'array', note: 'string' }),
    description: 'List the toolsets and which this connection lists; unlisted tools can be called too.',
  })
  list(): ToolsetList {
    const selected = currentMcpConnection()?.toolsets ?? this.toolsets.defaults;
    return { selected, toolsets: this.toolsets.summaries(selected), note: `enable_toolset adds one to the listing; ${SELECT_HINT}` };
  }

  @McpTool({
    name: 'enable_toolset',
    annotations: IDEMPOTENT_UPDATE,
    outputSchema: output({ toolset: 'string', added_tools: 'array', tools: 'array', note: 'string' }),
    description: "Add a toolset to this connection's listing (stateless /mcp: answers its tools).",
    input: EnableToolsetDto,
  })
  async enable(input: EnableToolsetDto): Promise<EnabledToolset> {
    if (!TOOLSET_NAMES.includes(input.toolset)) throw RequestError.invalidInput(`toolset must be one of ${TOOLSET_NAMES.join(', ')}`);
    const connection = currentMcpConnection();
    const before = new Set(this.toolsets.listing(connection?.toolsets ?? this.toolsets.defaults).map((t) => t.name));
    const added = this.toolsets.toolsOf(input.toolset).filter((t) => !before.has(t.name));
    if (connection?.stateful) {
      await connection.enable(input.toolset);
      return { toolset: input.toolset, added_tools: added.map((t) => t.name), note: 'this connection now lists them; tools/list_changed was sent' };
    }
    // A stateless request has no connection to remember the choice: the tools come with the answer.
    return {
      toolset: input.toolset,
      added_tools: added.map((t) => t.name),
      tools: added.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
      note: `this stateless connection lists what its URL or header names, so tools/list will not show them; they can be called now. ${SELECT_HINT}`,
    };
  }
}
