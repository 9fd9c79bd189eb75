import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { PageQueryDto } from '../tasks/dto/page-query.dto';
import { ExperimentIdParamsDto } from './dto/experiment-id-params.dto';
import { ListExperimentsQueryDto } from './dto/list-experiments-query.dto';
import { ListRunsQueryDto } from './dto/list-runs-query.dto';
import { MachineIdParamsDto } from './dto/machine-id-params.dto';
import { RunIdParamsDto } from './dto/run-id-params.dto';
import { ToggleReaperDto } from './dto/toggle-reaper.dto';
import { ExperimentEventView, ExperimentView, MachineView, RunView } from './executor.views';
import { ExperimentsService } from './experiments.service';
import { MachinesService, SlotReadiness } from './machines.service';
import { OrphanReaperService, ReaperStateView } from './orphan-reaper.service';
import { RunsService } from './runs.service';

/** What executors recorded: experiments, runs, machines; the orphan reaper and slot readiness. Worktrees have their own controller. */
@Controller('projects/:project_id')
export class ExecutorController {
  constructor(
    private readonly experiments: ExperimentsService,
    private readonly runs: RunsService,
    private readonly machines: MachinesService,
    private readonly reaper: OrphanReaperService,
  ) {}

  @Get('experiments')
  listExperiments(@Param() params: ProjectIdDto, @Query() query: ListExperimentsQueryDto): Promise<ExperimentView[]> {
    return this.experiments.list(params.project_id, query);
  }

  @Get('experiments/:experiment_id/events')
  experimentEvents(@Param() params: ExperimentIdParamsDto, @Query() query: PageQueryDto): Promise<ExperimentEventView[]> {
    return this.experiments.events(params.project_id, params.experiment_id, query);
  }

  @Get('experiments/:experiment_id/runs')
  experimentRuns(@Param() params: ExperimentIdParamsDto, @Query() query: ListRunsQueryDto): Promise<RunView[]> {
    return this.runs.list(params.project_id, query, params.experiment_id);
  }

  @Get('runs')
  listRuns(@Param() params: ProjectIdDto, @Query() query: ListRunsQueryDto): Promise<RunView[]> {
    return this.runs.list(params.project_id, query);
  }

  @Get('runs/:run_id')
  getRun(@Param() params: RunIdParamsDto): Promise<RunView> {
    return this.runs.get(params.project_id, params.run_id);
  }

  @Get('registered-machines')
  listMachines(@Param() params: ProjectIdDto): Promise<MachineView[]> {
    return this.machines.list(params.project_id);
  }

  @Delete('registered-machines/:machine_id')
  @HttpCode(204)
  removeMachine(@Param() params: MachineIdParamsDto): Promise<void> {
    return this.machines.remove(params.project_id, params.machine_id);
  }

  @Get('slot-readiness')
  slotReadiness(@Param() params: ProjectIdDto): Promise<SlotReadiness> {
    return this.machines.slotReadiness(params.project_id);
  }

  @Get('orphan_reaper')
  reaperState(@Param() params: ProjectIdDto): Promise<ReaperStateView> {
    return this.reaper.state(params.project_id);
  }

  @Post('orphan_reaper/toggle')
  @HttpCode(200)
  toggleReaper(@Param() params: ProjectIdDto, @Body() body: ToggleReaperDto): Promise<ReaperStateView> {
    return this.reaper.toggle(params.project_id, body);
  }
}
