import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { reasonOf, toErrorResponse } from '../common/errors/error-response';
import { ThrottledLog } from '../common/logging/throttled-log';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { mcpSdk } from './sdk';
import { ToolCallObservers } from './tool-call-observers';
import { ToolRegistry } from './tool-registry.service';
import { ToolText } from './tool-text';

/**
 * Builds an MCP server over the tool registry. A tool's failure is a result
 * with `isError` whose text is the same `detail` the REST route would answer.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('mcp');
  private readonly outages = new ThrottledLog(this.logger);

  constructor(
    private readonly registry: ToolRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() private readonly observers?: ToolCallObservers,
  ) {}

  create(): Server {
    const { Server, ListToolsRequestSchema, CallToolRequestSchema } = mcpSdk();
    const server = new Server(
      { name: 'baton', version: this.config.version },
      {
        capabilities: { tools: { listChanged: false } },
        instructions: 'Baton keeps the live state of a software project: goals, sprint items, tasks, decisions, sessions and file locks. Call start_session first.',
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: this.registry.list().map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => this.call(request.params.name, request.params.arguments));
    return server;
  }

  async call(name: string, args: unknown): Promise<CallToolResult> {
    const tool = this.registry.get(name);
    if (!tool) {
      // Not the SDK's McpError: its message already reads "MCP error -32602: ...", the server sends that
      // message as it is, and the client's McpError puts the prefix in front a second time.
      throw Object.assign(new Error(`unknown tool: ${name}`), { code: mcpSdk().ErrorCode.InvalidParams });
    }
    const startedAt = new Date();
    const started = performance.now();
    try {
      const result = await tool.invoke(args ?? {});
      await this.observers?.notify({ tool: name, args, startedAt, durationMs: performance.now() - started, outcome: 'ok' });
      const text = result instanceof ToolText ? result.text : JSON.stringify(result ?? { ok: true });
      return { content: [{ type: 'text', text }] };
    } catch (error) {
      const { body, unexpected } = toErrorResponse(error);
      if (unexpected) this.logger.error({ msg: 'unexpected tool error', tool: name, error_id: body.error_id, stack: unexpected.stack });
      else if (body.code === 'DATABASE_UNAVAILABLE') this.outages.warn('tool calls failed: the database is unavailable', { code: body.code, reason: reasonOf(error) });
      const errorCode = body.code ?? (unexpected ? 'INTERNAL' : undefined);
      await this.observers?.notify({ tool: name, args, startedAt, durationMs: performance.now() - started, outcome: 'error', errorCode, errorDetail: body.detail });
      return {
        isError: true,
        content: [{ type: 'text', text: body.detail }],
        structuredContent: body,
      };
    }
  }
}
