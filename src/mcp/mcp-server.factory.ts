import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { requestIsReadOnly, settleBeforeAnswer } from '../../libs/tenancy';
import { reasonOf, toErrorResponse } from '../common/errors/error-response';
import { ThrottledLog } from '../common/logging/throttled-log';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TenantError } from '../modules/tenants/tenants.errors';
import { currentMcpConnection } from './mcp-connection';
import { McpToolsets } from './mcp-toolsets.service';
import { McpSessionFeatures } from './sessions/mcp-session-features';
import { mcpSdk } from './sdk';
import { SERVER_INSTRUCTIONS } from './server-instructions';
import { ToolAnswerExtras } from './tool-answer-extras';
import { ToolCallGates } from './tool-call-gates';
import { ToolCallObservers } from './tool-call-observers';
import { ToolRegistry } from './tool-registry.service';
import { ToolText } from './tool-text';
import { McpTasks, TASK_CAPABILITIES } from './tasks/mcp-tasks.service';
import { McpPrompts, PROMPT_CAPABILITIES } from './prompts/mcp-prompts.service';
import { orderByPriority } from './tool-priority.util';
import { ToolPriorities } from './tool-priorities.service';

/**
 * Builds an MCP server over the tool registry. A tool's failure is a result
 * with `isError` whose text is the same `detail` the REST route would answer.
 * A request whose token has the read scope may call only the tools annotated
 * readOnlyHint; any other is refused with `READ_ONLY_TOKEN`.
 */
@Injectable()
export class McpServerFactory {
  private readonly logger = new Logger('mcp');
  private readonly outages = new ThrottledLog(this.logger);

  constructor(
    private readonly registry: ToolRegistry,
    private readonly toolsets: McpToolsets,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly tasks: McpTasks,
    private readonly prompts: McpPrompts,
    @Optional() private readonly observers?: ToolCallObservers,
    @Optional() private readonly answerExtras?: ToolAnswerExtras,
    @Optional() private readonly sessionFeatures?: McpSessionFeatures,
    @Optional() private readonly gates?: ToolCallGates,
    @Optional() private readonly priorities?: ToolPriorities,
  ) {}

  /**
   * A server whose handlers serve whichever connection the message came from
   * (`withMcpConnection`): one server answers every stateless request, and
   * `tools/list` lists the caller's toolsets. `listChanged`: a stateful
   * connection is told when enable_toolset widens its listing.
   */
  create(): Server {
    const { Server, ListToolsRequestSchema, CallToolRequestSchema } = mcpSdk();
    // Tasks: the waiting tools may be called as tasks, kept where every instance reads them (tasks/).
    const taskStore = this.tasks.store((name, args, firstRun) => this.call(name, args, firstRun));
    const server = new Server(
      { name: 'baton', version: this.config.version },
      {
        capabilities: { tools: { listChanged: true }, tasks: TASK_CAPABILITIES, ...PROMPT_CAPABILITIES },
        instructions: SERVER_INSTRUCTIONS,
        taskStore,
      },
    );
    this.tasks.install(server, taskStore);
    this.prompts.install(server);
    server.setRequestHandler(ListToolsRequestSchema, async () => {
      const connection = currentMcpConnection();
      let tools = this.toolsets.listing(connection?.toolsets ?? this.toolsets.defaults);
      if (connection?.projectId && this.priorities) tools = orderByPriority(tools, await this.priorities.of(connection.projectId));
      return {
        tools: tools.map((t) => ({
          name: t.name,
          description: t.description,
          inputSchema: t.inputSchema,
          annotations: t.annotations,
          outputSchema: t.outputSchema,
          ...this.tasks.execution(t.name),
        })),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async (request) =>
      request.params.task ? taskStore.open(request.params) : this.call(request.params.name, request.params.arguments),
    );
    // Resources and logging (src/mcp/sessions/).
    this.sessionFeatures?.install(server);
    return server;
  }

  /** A JSON object answer with what the answer extras add for these arguments (the notices owed to the session named). */
  private async withExtras(result: unknown, args: unknown): Promise<unknown> {
    if (!this.answerExtras?.names.length || !isPlainObject(result) || !isPlainObject(args)) return result;
    const added = await this.answerExtras.collect(args);
    return Object.keys(added).length ? { ...added, ...result } : result;
  }

  /**
   * The work the call's changes hold its answer for (the board version moved, BoardReadCache). The
   * HTTP answer waits for it too (answer-hold.ts), but a call answered on an event stream (a
   * session's, the legacy SSE transport) does not end its response: the call waits here.
   */
  private async settled(): Promise<void> {
    const held = settleBeforeAnswer();
    if (held) await held;
  }

  /** Runs a tool; `observe` false for the repeated checks of a task, which are not calls of the client's (AI-log). */
  async call(name: string, args: unknown, observe = true): Promise<CallToolResult> {
    const tool = this.registry.get(name);
    if (!tool) {
      // Not the SDK's McpError: its message already reads "MCP error -32602: ...", the server sends that
      // message as it is, and the client's McpError puts the prefix in front a second time.
      throw Object.assign(new Error(`unknown tool: ${name}`), { code: mcpSdk().ErrorCode.InvalidParams });
    }
    const startedAt = new Date();
    const started = performance.now();
    try {
      // A read-scope token may call any tool that only reads; the others are refused before their arguments are read.
      if (!tool.annotations.readOnlyHint && requestIsReadOnly()) throw TenantError.readOnlyToken(`the tool ${name}`);
      await this.gates?.check({ name, readOnly: tool.annotations.readOnlyHint === true });
      const result = await this.withExtras(await tool.invoke(args ?? {}), args);
      if (observe) await this.observers?.notify({ tool: name, args, startedAt, durationMs: performance.now() - started, outcome: 'ok' });
      await this.settled();
      const text = result instanceof ToolText ? result.text : JSON.stringify(result ?? { ok: true });
      return { content: [{ type: 'text', text }], ...(tool.structured && { structuredContent: tool.structured(result) }) };
    } catch (error) {
      const { body, unexpected } = toErrorResponse(error);
      if (unexpected) this.logger.error({ msg: 'unexpected tool error', tool: name, error_id: body.error_id, stack: unexpected.stack });
      else if (body.code === 'DATABASE_UNAVAILABLE') this.outages.warn('tool calls failed: the database is unavailable', { code: body.code, reason: reasonOf(error) });
      else if (body.code === 'DATABASE_NOT_CONFIGURED')
        this.outages.warn('tool calls failed: a tenant server is missing from SERVICE_TENANT_DB_URLS', { code: body.code, reason: reasonOf(error) });
      const errorCode = body.code ?? (unexpected ? 'INTERNAL' : undefined);
      if (observe) await this.observers?.notify({ tool: name, args, startedAt, durationMs: performance.now() - started, outcome: 'error', errorCode, errorDetail: body.detail });
      await this.settled();
      return {
        isError: true,
        content: [{ type: 'text', text: body.detail }],
        structuredContent: body,
      };
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;
}
