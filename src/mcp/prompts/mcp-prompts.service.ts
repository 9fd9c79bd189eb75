import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { mcpSdk } from '../sdk';
import { ToolRegistry } from '../tool-registry.service';
import { complete } from './completions';
import { LiveReads } from './live-reads';
import { getPrompt, listedPrompts } from './workflow-prompts';

/** What the server declares: prompts (a fixed set, so no listChanged) and argument completion. */
export const PROMPT_CAPABILITIES: Pick<ServerCapabilities, 'prompts' | 'completions'> = { prompts: {}, completions: {} };

/**
 * The workflow prompts (prompts/list, prompts/get) and completion/complete of their arguments.
 * They cost nothing in the tool listing: a client reads a prompt when its user picks one.
 */
@Injectable()
export class McpPrompts {
  private readonly reads: LiveReads;

  constructor(registry: ToolRegistry) {
    this.reads = new LiveReads(registry);
  }

  install(server: Server): void {
    const { ListPromptsRequestSchema, GetPromptRequestSchema, CompleteRequestSchema } = mcpSdk();
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: listedPrompts() }));
    server.setRequestHandler(GetPromptRequestSchema, (request) => getPrompt(this.reads, request.params.name, request.params.arguments));
    server.setRequestHandler(CompleteRequestSchema, (request) => complete(this.reads, request.params));
  }
}
