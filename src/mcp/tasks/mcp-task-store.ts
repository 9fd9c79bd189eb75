import { randomUUID } from 'node:crypto';
import type { CreateTaskOptions, TaskStore } from '@modelcontextprotocol/sdk/experimental/tasks';
import type { CallToolRequest, CallToolResult, CreateTaskResult, Request, RequestId, Result, Task } from '@modelcontextprotocol/sdk/types.js';
import { isUUID } from 'class-validator';
import { In, LessThan, MoreThanOrEqual } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { mcpSdk } from '../sdk';
import { McpTaskRow } from './mcp-task.entity';
import { arrivedIn, WaitingTool, waitingTool } from './waiting-tools';

/** Runs a tool once and answers its result as tools/call would (a failure is a result with isError). */
export type ToolRunner = (name: string, args: Record<string, unknown>, firstRun: boolean) => Promise<CallToolResult>;

/** How long a task is kept when the client asks for nothing (an hour), and at most (a day). */
export const DEFAULT_TASK_TTL_MS = 3_600_000;
export const MAX_TASK_TTL_MS = 86_400_000;
/** How long a finished wait stays readable at least, whatever ttl the client asked for. */
const MIN_KEEP_AFTER_WAIT_MS = 60_000;
/** The task's wait may be as long as the tool's argument allows (its DTO caps it at an hour). */
const MAX_TASK_WAIT_S = 3600;
export const TASK_POLL_INTERVAL_MS = 1000;
const PAGE_SIZE = 50;
const OPEN = ['working', 'input_required'];

/** A JSON-RPC error the server sends as it is (the SDK's McpError would prefix its message twice on the client). */
export function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data !== undefined && { data }) });
}

/**
 * The MCP task store of Baton's waiting tools, in the tenant's own storage (table mcp_tasks), so
 * any instance answers for any task and a client that reconnects finds its tasks again.
 *
 * No instance runs a task in the background: a task is the recorded call and the time until which
 * it waits. Whoever asks about a task that is still working (tasks/get, tasks/list, on any
 * instance) runs the tool once without waiting, and tasks/result runs it with a slice of its wait
 * (settle): when what it waits for has arrived, or the wait is over, the result is stored and the
 * task is completed (failed when the tool answered an error). So a task never hangs on an instance that went away, and a cancel by another instance
 * wins over a check that comes after it (the result is only stored while the task is still open).
 *
 * Tasks belong to the tenant (its schema or SQLite file holds them), as every project record does;
 * the stateless transport has no session, so the SDK's sessionId is always undefined here.
 */
export class McpTaskStore implements TaskStore {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly run: ToolRunner,
  ) {}

  /**
   * A task-augmented tools/call: checked once at once, then recorded. A call that fails at once
   * (bad arguments, an unknown request, a read-only token) is answered with a JSON-RPC error
   * carrying the tool's detail, and nothing is recorded.
   */
  async open(params: CallToolRequest['params']): Promise<CreateTaskResult> {
    const tool = waitingTool(params.name);
    if (!tool) throw rpcError(mcpSdk().ErrorCode.MethodNotFound, `the tool ${params.name} does not run as a task (only get_hitl_request and receive_messages do)`);
    const args = { ...(params.arguments ?? {}) };
    const first = await this.run(params.name, withWait(tool, args, 0), true);
    if (first.isError) {
      const detail = (first.structuredContent as { detail?: string } | undefined)?.detail ?? 'the call failed';
      throw rpcError(mcpSdk().ErrorCode.InvalidParams, detail, first.structuredContent);
    }
    const waitS = Math.min(Math.max(Number(args[tool.waitArgument] ?? 0) || 0, 0), MAX_TASK_WAIT_S);
    const task = await this.createTask({ ttl: params.task?.ttl, context: { waitMs: waitS * 1000 } }, 0, { method: 'tools/call', params });
    if (waitS === 0 || arrivedIn(tool, first)) {
      await this.storeTaskResult(task.taskId, 'completed', first);
      const row = await this.live(task.taskId);
      return { task: row ? toTask(row) : task };
    }
    return { task };
  }

  async createTask(taskParams: CreateTaskOptions, _requestId: RequestId, request: Request): Promise<Task> {
    const params = request.params as CallToolRequest['params'];
    const now = this.clock.now();
    const waitMs = Number(taskParams.context?.waitMs ?? 0);
    const ttl = Math.min(Math.max(taskParams.ttl ?? DEFAULT_TASK_TTL_MS, waitMs + MIN_KEEP_AFTER_WAIT_MS), MAX_TASK_TTL_MS);
    const row: McpTaskRow = {
      id: randomUUID(),
      tool: params.name,
      arguments: JSON.stringify(params.arguments ?? {}),
      status: 'working',
      status_message: null,
      result: null,
      wait_until: new Date(now.getTime() + waitMs),
      ttl_ms: ttl,
      poll_interval_ms: TASK_POLL_INTERVAL_MS,
      created_at: now,
      updated_at: now,
      expires_at: new Date(now.getTime() + ttl),
    };
    await this.db.transaction(async (m) => {
      // Expired tasks go when new ones come: the table holds at most a day of a tenant's waits.
      await m.delete(McpTaskRow, { expires_at: LessThan(now) });
      await m.insert(McpTaskRow, row);
    });
    return toTask(row);
  }

  async getTask(taskId: string): Promise<Task | null> {
    const row = await this.live(taskId);
    return row ? toTask(await this.checked(row)) : null;
  }

  /**
   * The task, its check waiting up to `sliceS` seconds (never past the task's own wait) for what
   * the task waits for, woken by push like a plain call: how tasks/result waits. A cancel made on
   * another instance meanwhile is seen when the slice ends.
   */
  async settle(taskId: string, sliceS: number): Promise<Task | null> {
    const row = await this.live(taskId);
    if (!row) return null;
    // Whole seconds, at least one: a slice never spins on the last fraction of a wait.
    const left = Math.max(1, Math.min(sliceS, Math.ceil((row.wait_until.getTime() - this.clock.now().getTime()) / 1000)));
    return toTask(await this.checked(row, left));
  }

  async storeTaskResult(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void> {
    await this.finish(taskId, status, result);
  }

  async getTaskResult(taskId: string): Promise<Result> {
    const row = await this.live(taskId);
    if (!row) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `task not found: ${taskId}`);
    if (row.result === null) throw rpcError(mcpSdk().ErrorCode.InvalidParams, `task ${taskId} is ${row.status}: it has no result`);
    return JSON.parse(row.result) as Result;
  }

  async updateTaskStatus(taskId: string, status: Task['status'], statusMessage?: string): Promise<void> {
    const now = this.clock.now();
    // Only an open task changes: a cancel and a completion racing on two instances leave the first one's outcome.
    await this.db.transaction((m) => m.update(McpTaskRow, { id: taskId, status: In(OPEN) }, { status, status_message: statusMessage ?? null, updated_at: now }));
  }

  async listTasks(cursor?: string): Promise<{ tasks: Task[]; nextCursor?: string }> {
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error('invalid cursor');
    const now = this.clock.now();
    const rows = await this.db.read((m) =>
      m.find(McpTaskRow, { where: { expires_at: MoreThanOrEqual(now) }, order: { created_at: 'ASC', id: 'ASC' }, skip: offset, take: PAGE_SIZE + 1 }),
    );
    const page = rows.slice(0, PAGE_SIZE);
    const tasks: Task[] = [];
    for (const row of page) tasks.push(toTask(await this.checked(row)));
    return { tasks, ...(rows.length > PAGE_SIZE && { nextCursor: String(offset + PAGE_SIZE) }) };
  }

  /** The task if it exists and has not expired. */
  private async live(taskId: string): Promise<McpTaskRow | null> {
    if (!isUUID(taskId)) return null;
    const row = await this.db.read((m) => m.findOneBy(McpTaskRow, { id: taskId.toLowerCase() }));
    return row && row.expires_at.getTime() >= this.clock.now().getTime() ? row : null;
  }

  /** An open task checked once (waiting up to `waitS`): completed when what it waits for has arrived or its wait is over. */
  private async checked(row: McpTaskRow, waitS = 0): Promise<McpTaskRow> {
    const tool = waitingTool(row.tool);
    if (!tool || !OPEN.includes(row.status)) return row;
    const result = await this.run(row.tool, withWait(tool, JSON.parse(row.arguments) as Record<string, unknown>, waitS), false);
    const over = this.clock.now().getTime() >= row.wait_until.getTime();
    if (!result.isError && !arrivedIn(tool, result) && !over) return row;
    await this.finish(row.id, result.isError ? 'failed' : 'completed', result);
    return (await this.db.read((m) => m.findOneBy(McpTaskRow, { id: row.id }))) ?? row;
  }

  private async finish(taskId: string, status: 'completed' | 'failed', result: Result): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction((m) => m.update(McpTaskRow, { id: taskId, status: In(OPEN) }, { status, result: JSON.stringify(result), updated_at: now }));
  }
}

/**
 * The call's arguments for one check that waits `waitS` seconds. A wait the tool would refuse (not
 * a number, out of its bounds) is left as it is, so the check is refused exactly as the call would be.
 */
function withWait(tool: WaitingTool, args: Record<string, unknown>, waitS: number): Record<string, unknown> {
  const wait = args[tool.waitArgument];
  return typeof wait === 'number' && wait >= 0 && wait <= MAX_TASK_WAIT_S ? { ...args, [tool.waitArgument]: waitS } : args;
}

function toTask(row: McpTaskRow): Task {
  return {
    taskId: row.id,
    status: row.status as Task['status'],
    ttl: row.ttl_ms,
    createdAt: row.created_at.toISOString(),
    lastUpdatedAt: row.updated_at.toISOString(),
    pollInterval: row.poll_interval_ms,
    ...(row.status_message !== null && { statusMessage: row.status_message }),
  };
}
