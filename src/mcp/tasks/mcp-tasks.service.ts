import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { mcpSdk } from '../sdk';
import { McpTaskStore, rpcError, ToolRunner } from './mcp-task-store';
import { waitingTool } from './waiting-tools';

/** What the server declares: tools/call may be task-augmented; tasks can be listed and cancelled. */
export const TASK_CAPABILITIES: ServerCapabilities['tasks'] = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** How long one look of tasks/result waits for the answer before it reads the task again (a cancel from elsewhere shows then). */
const RESULT_SLICE_S = 10;

/**
 * MCP tasks for Baton's waiting tools (the 2025-11-25 tasks utility, through the SDK's task
 * support): the store the SDK's tasks/get, tasks/list and tasks/cancel handlers use, and
 * tasks/result, which waits for the task to end whichever instance answers it.
 */
@Injectable()
export class McpTasks {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  /** The store of a server whose tools are run by `run`. */
  store(run: ToolRunner): McpTaskStore {
    return new McpTaskStore(this.db, this.clock, run);
  }

  /** `execution` of a tool in the listing: the waiting tools may be called as tasks. */
  execution(tool: string): { execution: { taskSupport: 'optional' } } | undefined {
    return waitingTool(tool) ? { execution: { taskSupport: 'optional' } } : undefined;
  }

  /**
   * Replaces the SDK's tasks/result (which sleeps a poll interval between looks at the store) with
   * one that waits in slices of the tool's own wait, woken by push as a plain call is, until the
   * task ends; the tool's wait keeps the request's deadline ahead of it. A cancelled task has no
   * result: its tasks/result is an InvalidParams error saying so.
   */
  install(server: Server, store: McpTaskStore): void {
    const { GetTaskPayloadRequestSchema, RELATED_TASK_META_KEY, ErrorCode } = mcpSdk();
    server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
      const { taskId } = request.params;
      for (;;) {
        if (extra.signal.aborted) throw rpcError(ErrorCode.InvalidRequest, 'request cancelled');
        const task = await store.settle(taskId, RESULT_SLICE_S);
        if (!task) throw rpcError(ErrorCode.InvalidParams, `task not found: ${taskId}`);
        if (TERMINAL.has(task.status)) {
          const result = await store.getTaskResult(taskId);
          return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
        }
      }
    });
  }
}
