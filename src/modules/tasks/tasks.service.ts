import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { requireProject } from '../projects/require-project.util';
import { CreateTaskDto } from './dto/create-task.dto';
import { EnqueueTaskDto } from './dto/enqueue-task.dto';
import { ListTasksQueryDto } from './dto/list-tasks-query.dto';
import { DEFAULT_PAGE_SIZE } from './dto/page-query.dto';
import { UpdateTaskDto } from './dto/update-task.dto';
import { requireSessionOf } from './session-of-project.util';
import { Task } from './task.entity';
import { insertTask } from './task-rows';
import { publishTaskChanged } from './task-changed.util';
import { TaskView, toTaskView } from './task.view';
import { TASK_TRANSITIONS, TaskStatus } from './tasks.constants';
import { TaskError } from './tasks.errors';
import { findById } from '../../database/find-by-id';
import { allowanceOf } from '../../common/plans';
import { TenantPlans } from '../push/tenant-plans.service';
import { ProjectSettingsService } from '../project-settings/project-settings.service';

/** The task log of a project: write, list newest first, change, delete; and tasks queued for executors. */
@Injectable()
export class TasksService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly realtime: RealtimeEvents,
    private readonly plans: TenantPlans,
    private readonly settings: ProjectSettingsService,
  ) {}

  /** Logs a task for a session of the project; an unknown session is refused. */
  async create(input: CreateTaskDto): Promise<TaskView> {
    const view = await this.db.transaction(async (m) => {
      await requireProject(m, input.project_id);
      await requireSessionOf(m, input.session_id, input.project_id);
      const status = input.status ?? 'done';
      const now = this.clock.now();
      const task: Omit<Task, 'seq'> = {
        id: randomUUID(),
        project_id: input.project_id,
        session_id: input.session_id,
        description: input.description,
        status,
        source: 'log',
        // Logged as in progress: the session is working on it, as if it had claimed it.
        claimed_by: status === 'in_progress' ? input.session_id : null,
        claimed_at: status === 'in_progress' ? now : null,
        created_at: now,
        updated_at: now,
      };
      await insertTask(m, this.db.dialect, task);
      return toTaskView({ ...task, seq: 0 });
    });
    // Wakes the session's live task stream (GET .../sessions/{id}/tasks/live) and the dashboards.
    this.realtime.publish({ tenantId: currentTenant().tenantId, event: 'task_logged', data: { task: view } });
    return view;
  }

  /**
   * Stores a task for an executor: `pending` (dispatched: an executor may claim it) when the
   * project's execution_mode is `autonomous`, `backlog` (waiting for a person, who dispatches it
   * with PATCH status pending) when it is `interactive`.
   */
  async enqueue(input: EnqueueTaskDto): Promise<TaskView> {
    const { plan } = await this.plans.planOf(currentTenant().tenantId);
    if (!allowanceOf(plan).queuedAssistantTasks) throw TaskError.planRequired(plan);
    return this.db.transaction(async (m) => {
      await requireProject(m, input.project_id);
      if (input.session_id) await requireSessionOf(m, input.session_id, input.project_id);
      const dispatched = (await this.settings.read(m, input.project_id)).execution_mode === 'autonomous';
      const now = this.clock.now();
      const task: Omit<Task, 'seq'> = {
        id: randomUUID(),
        project_id: input.project_id,
        session_id: input.session_id ?? null,
        description: input.description,
        status: dispatched ? 'pending' : 'backlog',
        source: 'enqueue',
        claimed_by: null,
        claimed_at: null,
        created_at: now,
        updated_at: now,
      };
      await insertTask(m, this.db.dialect, task);
      return toTaskView({ ...task, seq: 0 });
    });
  }

  async list(projectId: string, query: ListTasksQueryDto): Promise<TaskView[]> {
    const tasks = await this.db.read(async (m) => {
      await requireProject(m, projectId);
      return m.find(Task, {
        where: { project_id: projectId, ...(query.status ? { status: query.status } : {}) },
        order: { seq: 'DESC' },
        take: query.limit ?? DEFAULT_PAGE_SIZE,
        skip: query.offset ?? 0,
      });
    });
    return tasks.map(toTaskView);
  }

  async get(id: string): Promise<TaskView> {
    return toTaskView(await this.db.read((m) => this.require(m, id)));
  }

  /**
   * Changes the description and/or the status. A status move must be one of
   * TASK_TRANSITIONS; the update is conditional on the status read, so two
   * concurrent moves cannot both apply to the same starting state.
   */
  async update(id: string, input: UpdateTaskDto): Promise<TaskView> {
    if (input.status === undefined && input.description === undefined) {
      throw RequestError.invalidInput('give status and/or description to change');
    }
    const view = await this.db.transaction(async (m) => {
      const task = await this.require(m, id);
      const changes: Partial<Task> = { updated_at: this.clock.now() };
      if (input.description !== undefined) changes.description = input.description;
      if (input.status !== undefined && input.status !== task.status) {
        assertTransition(task.status, input.status);
        changes.status = input.status;
        // Reopened: nobody works on it until someone claims it again.
        if (input.status === 'pending') Object.assign(changes, { claimed_by: null, claimed_at: null });
      }
      const result = await m.update(Task, { id, status: task.status }, changes);
      if (!result.affected) {
        const now = await this.require(m, id);
        throw TaskError.transitionRefused(now.status, input.status ?? now.status, TASK_TRANSITIONS[now.status]);
      }
      return toTaskView({ ...task, ...changes });
    });
    publishTaskChanged(this.realtime, view, input.status === 'done' || input.status === 'failed' ? 'finished' : 'updated');
    return view;
  }

  async remove(id: string): Promise<void> {
    const removed = await this.db.transaction(async (m) => {
      const task = await findById(m, Task, id);
      if (!task) throw TaskError.notFound(id);
      const result = await m.delete(Task, { id: task.id });
      return result.affected ? task : null;
    });
    if (!removed) throw TaskError.notFound(id);
    publishTaskChanged(this.realtime, removed, 'deleted');
  }

  private async require(m: EntityManager, id: string): Promise<Task> {
    const task = await findById(m, Task, id);
    if (!task) throw TaskError.notFound(id);
    return task;
  }
}

function assertTransition(from: TaskStatus, to: TaskStatus) {
  if (!TASK_TRANSITIONS[from].includes(to)) throw TaskError.transitionRefused(from, to, TASK_TRANSITIONS[from]);
}
