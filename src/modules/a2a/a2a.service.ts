import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, In } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { isUniqueViolation } from '../../common/errors/db-errors';
import { PublicUrl } from '../../common/public-url';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { findById } from '../../database/find-by-id';
import { Project } from '../projects/project.entity';
import { A2A_LIST_LIMIT_DEFAULT, A2A_OPEN_STATES, A2aTaskState } from './a2a.constants';
import { A2aError } from './a2a.errors';
import { parseIncomingMessage } from './a2a-message.util';
import { a2aSdk } from './a2a-sdk';
import { A2aTask } from './a2a-task.entity';
import { toProtocolTask } from './a2a-task.protocol';
import { A2aTaskView, toA2aTaskView } from './a2a-task.view';
import { buildAgentCard } from './agent-card.util';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const SEND_FIELDS = new Set(['message', 'configuration', 'metadata', 'tenant']);

/**
 * Agent-to-agent tasks. An agent is a project (agent_id = project id): an
 * external agent hands it work with SendMessage, the task is stored as
 * submitted, and the project's sessions see it in their context block and
 * move it with update_a2a_task; the sending agent reads its state back.
 */
@Injectable()
export class A2aService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly url: PublicUrl,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A project's agent card: its JSON-RPC endpoint is `/a2a/{agent_id}`. */
  async agentCard(agentId: string): Promise<Record<string, unknown>> {
    await this.db.read((m) => this.requireAgent(m, agentId));
    return buildAgentCard({ base: this.url.base, version: this.config.version, hosted: this.config.isHosted, agentId });
  }

  /** SendMessage: stores a new task as submitted and answers the protocol Task. */
  async send(agentId: string, request: unknown): Promise<Record<string, unknown>> {
    if (!isObject(request)) throw A2aError.badMessage('the request must be a JSON object with a message');
    const unknown = Object.keys(request).filter((k) => !SEND_FIELDS.has(k));
    if (unknown.length) throw A2aError.badMessage(`unknown field ${unknown[0]}`);
    let parsed;
    try {
      parsed = parseIncomingMessage(request.message);
    } catch (error) {
      throw A2aError.badMessage((error as Error).message);
    }
    const now = this.clock.now();
    const contextId = parsed.message.contextId || randomUUID();
    const task: A2aTask = {
      id: randomUUID(),
      project_id: agentId,
      context_id: contextId.slice(0, 200),
      message_id: parsed.message.messageId,
      state: 'submitted',
      title: parsed.title,
      message: JSON.stringify(a2aSdk().Message.toJSON(parsed.message)),
      status_note: null,
      sender: parsed.sender,
      updated_by: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.db.transaction(async (m) => {
        await this.requireAgent(m, agentId);
        await m.insert(A2aTask, task);
      });
      return toProtocolTask(task);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const first = await this.db.read((m) => m.findOne(A2aTask, { where: { project_id: agentId, message_id: task.message_id } }));
      if (!first) throw error;
      return toProtocolTask(first);
    }
  }

  /** GetTask: the task of this agent, or the same 404 as a missing one. */
  async get(agentId: string, taskId: string): Promise<Record<string, unknown>> {
    return toProtocolTask(await this.db.read((m) => this.requireTask(m, agentId, taskId)));
  }

  /** CancelTask from the sending agent: an open task becomes canceled; a finished one is refused. */
  async cancel(agentId: string, taskId: string): Promise<Record<string, unknown>> {
    return toProtocolTask(await this.move(taskId, 'canceled', null, 'sending agent', agentId));
  }

  /** The project's tasks for its sessions, newest first; open ones only unless a state is named. */
  async list(projectId: string, state: A2aTaskState | 'all' | undefined, limit = A2A_LIST_LIMIT_DEFAULT): Promise<{ tasks: A2aTaskView[]; total: number }> {
    return this.db.read(async (m) => {
      await this.requireAgent(m, projectId);
      const states = state === 'all' ? undefined : state ? [state] : [...A2A_OPEN_STATES];
      const [rows, total] = await m.findAndCount(A2aTask, {
        where: { project_id: projectId, ...(states ? { state: In(states) } : {}) },
        order: { created_at: 'DESC', id: 'DESC' },
        take: limit,
      });
      return { tasks: rows.map(toA2aTaskView), total };
    });
  }

  /** A session takes the task further (working, input_required, completed, failed, rejected), with a note the agent reads. */
  async update(taskId: string, state: A2aTaskState, note: string | undefined, by: string | undefined): Promise<A2aTaskView> {
    return toA2aTaskView(await this.move(taskId, state, note ?? null, by ?? null));
  }

  private async move(taskId: string, state: A2aTaskState, note: string | null, by: string | null, agentId?: string): Promise<A2aTask> {
    return this.db.transaction(async (m) => {
      const task = agentId ? await this.requireTask(m, agentId, taskId) : await m.findOne(A2aTask, { where: { id: taskId } });
      if (!task) throw A2aError.taskNotFound(taskId);
      if (!A2A_OPEN_STATES.includes(task.state)) throw A2aError.closed(task.id, task.state);
      const changes = { state, status_note: note ?? task.status_note, updated_by: by, updated_at: this.clock.now() };
      const moved = await m.update(A2aTask, { id: task.id, state: task.state }, changes);
      if (!moved.affected) throw A2aError.closed(task.id, (await m.findOneOrFail(A2aTask, { where: { id: task.id } })).state);
      return { ...task, ...changes };
    });
  }

  private async requireAgent(m: EntityManager, agentId: string): Promise<void> {
    if (!(await findById(m, Project, agentId))) throw A2aError.agentNotFound(agentId);
  }

  private async requireTask(m: EntityManager, agentId: string, taskId: string): Promise<A2aTask> {
    await this.requireAgent(m, agentId);
    const task = await m.findOne(A2aTask, { where: { id: taskId, project_id: agentId } });
    if (!task) throw A2aError.taskNotFound(taskId);
    return task;
  }
}
