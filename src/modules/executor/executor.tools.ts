import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, IDEMPOTENT_UPDATE } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ClaimQueuedTaskDto } from './dto/claim-queued-task.dto';
import { ExperimentIdParamsDto } from './dto/experiment-id-params.dto';
import { FinishRunDto } from './dto/finish-run.dto';
import { MachineIdParamsDto } from './dto/machine-id-params.dto';
import { RecordExperimentEventDto } from './dto/record-experiment-event.dto';
import { RecordExperimentDto } from './dto/record-experiment.dto';
import { RegisterMachineDto } from './dto/register-machine.dto';
import { MergeWorktreeDto } from './dto/merge-worktree.dto';
import { RegisterWorktreeDto } from './dto/register-worktree.dto';
import { RunIdParamsDto } from './dto/run-id-params.dto';
import { SetExperimentStatusDto } from './dto/set-experiment-status.dto';
import { WorktreeIdParamsDto } from './dto/worktree-id-params.dto';
import { StartRunDto } from './dto/start-run.dto';
import { ExperimentsService } from './experiments.service';
import { MachinesService } from './machines.service';
import { RunsService } from './runs.service';
import { WorktreeMergesService } from './worktree-merges.service';
import { WorktreesService } from './worktrees.service';

/** What executors write: their machine and heartbeat, runs, queued tasks they take, experiments, worktrees. Reads are REST. */
@Injectable()
export class ExecutorTools {
  constructor(
    private readonly machines: MachinesService,
    private readonly runs: RunsService,
    private readonly experiments: ExperimentsService,
    private readonly worktrees: WorktreesService,
    private readonly merges: WorktreeMergesService,
  ) {}

  @McpTool({
    name: 'register_machine',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Register this machine as an executor of the project (same name: same machine); slots default 1.',
    params: ProjectIdDto,
    body: RegisterMachineDto,
  })
  registerMachine(params: ProjectIdDto, body: RegisterMachineDto) {
    return this.machines.register(params.project_id, body);
  }

  @McpTool({ name: 'machine_heartbeat', annotations: IDEMPOTENT_UPDATE, description: 'Tell Baton a registered machine is still alive.', input: MachineIdParamsDto })
  machineHeartbeat(input: MachineIdParamsDto) {
    return this.machines.heartbeat(input.project_id, input.machine_id);
  }

  @McpTool({
    name: 'claim_queued_task',
    annotations: ADDITIVE,
    description: 'Take the oldest queued task for a machine with a free slot; starts a run for it.',
    params: ProjectIdDto,
    body: ClaimQueuedTaskDto,
  })
  claimQueuedTask(params: ProjectIdDto, body: ClaimQueuedTaskDto) {
    return this.runs.claimQueued(params.project_id, body);
  }

  @McpTool({
    name: 'record_run',
    annotations: ADDITIVE,
    description: 'Record the start of an executor run (optionally on a machine, for a session or an experiment).',
    params: ProjectIdDto,
    body: StartRunDto,
  })
  recordRun(params: ProjectIdDto, body: StartRunDto) {
    return this.runs.start(params.project_id, body);
  }

  @McpTool({
    name: 'finish_run',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Finish a running run: succeeded or failed, with a summary.',
    params: RunIdParamsDto,
    body: FinishRunDto,
  })
  finishRun(params: RunIdParamsDto, body: FinishRunDto) {
    return this.runs.finish(params.project_id, params.run_id, body);
  }

  @McpTool({ name: 'record_experiment', annotations: ADDITIVE, description: 'Start an experiment (name, hypothesis).', params: ProjectIdDto, body: RecordExperimentDto })
  recordExperiment(params: ProjectIdDto, body: RecordExperimentDto) {
    return this.experiments.record(params.project_id, body);
  }

  @McpTool({
    name: 'record_experiment_event',
    annotations: ADDITIVE,
    description: 'Add an event (kind, body) to an experiment.',
    params: ExperimentIdParamsDto,
    body: RecordExperimentEventDto,
  })
  recordExperimentEvent(params: ExperimentIdParamsDto, body: RecordExperimentEventDto) {
    return this.experiments.recordEvent(params.project_id, params.experiment_id, body);
  }

  @McpTool({
    name: 'set_experiment_status',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Mark an experiment running, concluded or abandoned.',
    params: ExperimentIdParamsDto,
    body: SetExperimentStatusDto,
  })
  setExperimentStatus(params: ExperimentIdParamsDto, body: SetExperimentStatusDto) {
    return this.experiments.setStatus(params.project_id, params.experiment_id, body);
  }

  @McpTool({
    name: 'register_worktree',
    annotations: ADDITIVE,
    description: 'Record a git worktree this executor made (path, branch, machine, session).',
    params: ProjectIdDto,
    body: RegisterWorktreeDto,
  })
  registerWorktree(params: ProjectIdDto, body: RegisterWorktreeDto) {
    return this.worktrees.register(params.project_id, body);
  }

  @McpTool({
    name: 'merge_worktree',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Ask to merge a worktree: merge_status approved means go ahead; awaiting_approval means a person must approve first (require_merge_approval).',
    params: WorktreeIdParamsDto,
    body: MergeWorktreeDto,
  })
  mergeWorktree(params: WorktreeIdParamsDto, body: MergeWorktreeDto) {
    return this.merges.merge(params.project_id, params.worktree_id, body);
  }
}
