import { DEFAULT_TOOLSETS, parseToolsets } from '../../mcp/toolsets';
import { variable } from './variable';

/** The MCP endpoints: what a connection lists when it names no toolsets (src/mcp/toolsets.ts). */
export const MCP_VARIABLES = {
  mcpToolsets: variable<string[]>({
    name: 'SERVICE_MCP_TOOLSETS',
    description:
      'MCP toolsets listed to a connection that names none (?toolsets= or X-MCP-Toolsets), comma-separated: core, standard, all or domain toolsets; any tool can be called whatever is listed',
    sensitive: false,
    parse: mcpToolsets,
    default: DEFAULT_TOOLSETS,
  }),
} as const;

function mcpToolsets(raw: string): string[] {
  const parsed = parseToolsets(raw);
  if ('problem' in parsed) throw new Error(parsed.problem);
  return parsed.toolsets;
}
