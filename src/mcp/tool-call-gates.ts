import { Injectable } from '@nestjs/common';
import { ExtensionRegistry } from '../common/extensions/extension-registry';

/** Decides whether a tool call may run at all: throws the refusal (a domain error), else returns. */
export type ToolCallGate = (tool: { name: string; readOnly: boolean }) => void | Promise<void>;

/**
 * Checks every tool call must pass before its arguments are read (the workspace's compute cap).
 * Modules register theirs while the application boots; the MCP server factory runs them in order.
 */
@Injectable()
export class ToolCallGates extends ExtensionRegistry<ToolCallGate> {
  constructor() {
    super('tool call gate');
  }

  async check(tool: { name: string; readOnly: boolean }): Promise<void> {
    for (const [, gate] of this) await gate(tool);
  }
}
