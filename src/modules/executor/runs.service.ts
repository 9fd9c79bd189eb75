import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager } from 'typeorm';
import { bindParams, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { lockProject } from '../projects/project-lock.util';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE } from '../tasks/dto/page-query.dto';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { publishTaskChanged } from '../tasks/task-changed.util';
import { returnedRows } from '../tasks/task-rows';
import { Task } from '../tasks/task.entity';
import { TaskStatus } from '../tasks/tasks.constants';
import { TaskView, toTaskView } from '../tasks/task.view';
import { ClaimQueuedTaskDto } from './dto/claim-queued-task.dto';
import { FinishRunDto } from './dto/finish-run.dto';
import { ListRunsQueryDto } from './dto/list-runs-query.dto';
import { StartRunDto } from './dto/start-run.dto';
import { ExecutorRun } from './executor-run.entity';
import { ExecutorError } from './executor.errors';
import { RunView, toRunView } from './executor.views';
import { Experiment } from './experiment.entity';
import { MachinesService } from './machines.service';

/** A claim that got nothing says why: nothing queued, or the project already runs executor_config.max_parallel runs. */
export type QueuedClaim = { claimed: true; task: TaskView; run: RunView } | { claimed: false; task: null; run: null; reason: string };

/** What the project's settings give a run when it starts. */
interface RunAdmission {
  /** Why no run may start now (max_parallel reached), or null. */
  full: string | null;
  test_command: string | null;
}

/**
 * Executor runs: started by an executor for its own work, or by claiming a
 * task queued with POST /tasks/enqueue. A claim is one conditional UPDATE of
 * the oldest queued task, so two executors never get the same task.
 */
@Injectable()
export class RunsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly machines: MachinesService,
    private readonly settings: ProjectSettingsService,
    private readonly realtime: RealtimeEvents,
  ) {}

  /** Newest first, optionally of one status. */
  async list(projectId: string, query: ListRunsQueryDto, experimentId?: string): Promise<RunView[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (experimentId) await this.requireExperiment(m, projectId, experimentId);
      const runs = await m.find(ExecutorRun, {
        where: { project_id: projectId, ...(query.status ? { status: query.status } : {}), ...(experimentId ? { experiment_id: experimentId } : {}) },
        order: { started_at: 'DESC', id: 'DESC' },
        take: query.limit ?? DEFAULT_PAGE_SIZE,
        skip: query.offset ?? 0,
      });
      return runs.map(toRunView);
    });
  }

  async get(projectId: string, runId: string): Promise<RunView> {
    return this.db.transaction(async (m) => toRunView(await this.require(m, projectId, runId)));
  }

  async start(projectId: string, input: StartRunDto): Promise<RunView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (input.machine_id) await this.machines.require(m, projectId, input.machine_id, true);
      if (input.session_id) await requireSessionOf(m, input.session_id, projectId, { active: true });
      if (input.experiment_id) await this.requireExperiment(m, projectId, input.experiment_id);
      const admission = await this.admit(m, projectId);
      if (admission.full) throw ExecutorError.maxParallel(admission.full);
      return toRunView(await this.insert(m, projectId, { ...input, task_id: null }, admission.test_command));
    });
  }

  /** The oldest queued task of the project, taken by `machine_id` (which needs a free slot); nothing left answers claimed: false. */
  async claimQueued(projectId: string, input: ClaimQueuedTaskDto): Promise<QueuedClaim> {
    const dialect = this.db.dialect;
    const claim = await this.db.transaction(async (m): Promise<QueuedClaim> => {
      await this.machines.require(m, projectId, input.machine_id, true);
      if (input.session_id) await requireSessionOf(m, input.session_id, projectId, { active: true });
      // Over the cap the task stays queued: it is taken when a run of the project finishes.
      const admission = await this.admit(m, projectId);
      if (admission.full) return { claimed: false as const, task: null, run: null, reason: admission.full };
      const now = this.clock.now();
      const lock = dialect === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
      const [sql, params] = bindParams(
        dialect,
        `UPDATE tasks SET status = 'in_progress', claimed_by = $1, claimed_at = $2, updated_at = $2
          WHERE id = (SELECT id FROM tasks WHERE project_id = $3 AND source = 'enqueue' AND status = 'pending' ORDER BY seq LIMIT 1${lock})
            AND status = 'pending'
          RETURNING id`,
        [input.session_id ?? null, sqlTimestamp(dialect, now), projectId],
      );
      const rows = returnedRows<{ id: string }>(await m.query(sql, params));
      if (rows.length === 0) {
        const held = await m.countBy(Task, { project_id: projectId, source: 'enqueue', status: 'backlog' });
        const reason = held ? `no task is dispatched: ${held} queued task(s) wait for a person to dispatch them (execution_mode interactive)` : 'no task is queued';
        return { claimed: false as const, task: null, run: null, reason };
      }
      const task = await m.findOneByOrFail(Task, { id: rows[0].id });
      const run = await this.insert(
        m,
        projectId,
        { description: task.description, machine_id: input.machine_id, session_id: input.session_id, task_id: task.id },
        admission.test_command,
      );
      return { claimed: true as const, task: toTaskView(task), run: toRunView(run) };
    });
    if (claim.claimed) publishTaskChanged(this.realtime, claim.task, 'claimed');
    return claim;
  }

  /** Finishes a running run; its queued task, if any, finishes with it (done or failed). */
  async finish(projectId: string, runId: string, input: FinishRunDto): Promise<RunView> {
    const { view, task } = await this.db.transaction(async (m) => {
      const run = await this.require(m, projectId, runId);
      const now = this.clock.now();
      const result = await m.update(ExecutorRun, { id: run.id, status: 'running' }, { status: input.status, summary: input.summary ?? null, finished_at: now, updated_at: now });
      if (!result.affected) throw ExecutorError.runNotRunning(run.id, run.status);
      const status: TaskStatus = input.status === 'succeeded' ? 'done' : 'failed';
      const finished = run.task_id ? await m.update(Task, { id: run.task_id, status: 'in_progress' }, { status, updated_at: now }) : undefined;
      const task = run.task_id && finished?.affected ? { id: run.task_id, project_id: run.project_id, status } : null;
      return { view: toRunView(await m.findOneByOrFail(ExecutorRun, { id: run.id })), task };
    });
    if (task) publishTaskChanged(this.realtime, task, 'finished');
    return view;
  }

  async requireExperiment(m: EntityManager, projectId: string, experimentId: string): Promise<Experiment> {
    const experiment = await m.findOneBy(Experiment, { id: experimentId, project_id: projectId });
    if (!experiment) throw ExecutorError.experimentNotFound(experimentId);
    return experiment;
  }

  private async require(m: EntityManager, projectId: string, runId: string): Promise<ExecutorRun> {
    await requireProject(m, projectId);
    const run = await m.findOneBy(ExecutorRun, { id: runId, project_id: projectId });
    if (!run) throw ExecutorError.runNotFound(runId);
    return run;
  }

  /**
   * executor_config as the project resolves it: max_parallel caps the
   * project's running runs (the project row is locked first, so concurrent
   * starts on Postgres queue behind each other and cannot both take the last
   * place; SQLite runs one write at a time), and test_command travels with
   * every run.
   */
  private async admit(m: EntityManager, projectId: string): Promise<RunAdmission> {
    const { executor_config } = await this.settings.read(m, projectId);
    const cap = executor_config.max_parallel;
    let full: string | null = null;
    if (cap !== undefined && cap !== null) {
      await lockProject(m, projectId);
      const running = await m.countBy(ExecutorRun, { project_id: projectId, status: 'running' });
      if (running >= cap) full = `the project already runs ${running} executor runs, its executor_config.max_parallel of ${cap}`;
    }
    return { full, test_command: executor_config.test_command ?? null };
  }

  private async insert(m: EntityManager, projectId: string, input: StartRunDto & { task_id: string | null }, testCommand: string | null): Promise<ExecutorRun> {
    const now = this.clock.now();
    const run: ExecutorRun = {
      id: randomUUID(),
      project_id: projectId,
      machine_id: input.machine_id ?? null,
      session_id: input.session_id ?? null,
      task_id: input.task_id,
      experiment_id: input.experiment_id ?? null,
      description: input.description,
      status: 'running',
      summary: null,
      test_command: testCommand,
      started_at: now,
      finished_at: null,
      updated_at: now,
    };
    await m.insert(ExecutorRun, run);
    return run;
  }
}
