import { SetMetadata } from '@nestjs/common';
import { InputClass } from '../common/validation/validate-input';

export const MCP_TOOL = 'baton:mcp-tool';

export interface McpToolOptions {
  /** The tool name of the contract (service-spec). */
  name: string;
  description: string;
  /** The input class that validates the arguments: the same class (or the route's classes combined) as the REST door. */
  input?: InputClass<object>;
}

/**
 * Marks a method of a `*.tools.ts` provider as an MCP tool. The method receives
 * the validated input instance and returns a JSON-serialisable result; the
 * registry finds it at boot, so a module adds tools by declaring them here.
 */
export const McpTool = (options: McpToolOptions) => SetMetadata(MCP_TOOL, options);
