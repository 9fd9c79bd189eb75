import { AppConfig } from '../config/app-config';
import { RELEASES, releaseLabel } from '../openapi/release-labels';
import { RegisteredTool } from './tool-registry.service';

interface PropertySchema {
  type?: string;
  items?: { type?: string };
  format?: string;
  maxLength?: number;
  minLength?: number;
}

/** A markdown reference of every tool: name, the release that added it, purpose, and a table of its arguments. */
export function renderToolsDoc(tools: RegisteredTool[]): string {
  const lines = ['# Baton MCP tools', '', `${tools.length} tools. Every tool validates its arguments like the matching REST route.`, ''];
  for (const tool of tools) {
    const added = releaseLabel(RELEASES.tools, tool.name);
    lines.push(`## ${tool.name}`, '', `*${added ? `Added in ${added}` : 'Release not recorded'}.*`, '', tool.description, '');
    const properties = Object.entries(tool.inputSchema.properties) as [string, PropertySchema][];
    if (properties.length === 0) {
      lines.push('No arguments.', '');
      continue;
    }
    const required = new Set(tool.inputSchema.required ?? []);
    lines.push('| argument | type | required |', '|---|---|---|');
    for (const [name, schema] of properties) {
      const type = schema.type === 'array' ? `${schema.items?.type ?? 'any'}[]` : (schema.type ?? 'any');
      lines.push(`| ${name} | ${type}${schema.format ? ` (${schema.format})` : ''} | ${required.has(name) ? 'yes' : 'no'} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** One page telling a person how to point an MCP client at this instance. */
export function renderQuickstart(config: AppConfig, base: string, toolCount: number): string {
  const url = `${base}/mcp`;
  const headers = config.isHosted ? ',\n      "headers": { "Authorization": "Bearer sk_service_YOUR_TOKEN" }' : '';
  return [
    '# Baton MCP quick start',
    '',
    `Endpoint: \`${url}\` (Streamable HTTP). Legacy SSE clients: \`${base}/mcp/sse\`.`,
    config.isHosted
      ? 'Authentication: `Authorization: Bearer sk_service_...` on every request; 100 requests per minute per token.'
      : 'Self-hosted: no authentication; the service listens on the local host only.',
    '',
    'Add Baton to your MCP client configuration:',
    '',
    '```json',
    `{\n  "mcpServers": {\n    "baton": {\n      "type": "http",\n      "url": "${url}"${headers}\n    }\n  }\n}`,
    '```',
    '',
    `Then list the tools (${toolCount} today) and call \`list_projects\` or \`create_project\`.`,
    `The full reference is at ${base}/mcp/tools-doc.`,
    '',
  ].join('\n');
}
