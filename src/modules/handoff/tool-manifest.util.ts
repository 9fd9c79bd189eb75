import { ToolRegistry } from '../../mcp/tool-registry.service';
import { sha256 } from './handoff-ledger.service';

/** SHA-256 of the MCP tools served (names and input schemas): a handoff notes it, accept_handoff compares it. */
export function toolManifestHash(tools: ToolRegistry): string {
  return sha256(JSON.stringify(tools.list().map((t) => [t.name, t.inputSchema])));
}
