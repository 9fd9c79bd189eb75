import { Body, Controller, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { ExperimentIdParamsDto } from './dto/experiment-id-params.dto';
import { FinishRunDto } from './dto/finish-run.dto';
import { RecordExperimentEventDto } from './dto/record-experiment-event.dto';
import { RecordExperimentDto } from './dto/record-experiment.dto';
import { RunIdParamsDto } from './dto/run-id-params.dto';
import { SetExperimentStatusDto } from './dto/set-experiment-status.dto';
import { StartRunDto } from './dto/start-run.dto';
import { ExperimentEventView, ExperimentView, RunView } from './executor.views';
import { ExperimentsService } from './experiments.service';
import { RunsService } from './runs.service';

/**
 * The executors' writes over REST, for a connector or CI job that does not speak MCP: the same
 * service methods, inputs and answers as the executor toolset's record_experiment,
 * record_experiment_event, set_experiment_status, record_run and finish_run.
 */
@Controller('projects/:project_id')
export class ExecutorWritesController {
  constructor(
    private readonly experiments: ExperimentsService,
    private readonly runs: RunsService,
  ) {}

  @Post('experiments')
  recordExperiment(@Param() params: ProjectIdDto, @Body() body: RecordExperimentDto): Promise<ExperimentView> {
    return this.experiments.record(params.project_id, body);
  }

  @Post('experiments/:experiment_id/events')
  recordExperimentEvent(@Param() params: ExperimentIdParamsDto, @Body() body: RecordExperimentEventDto): Promise<ExperimentEventView> {
    return this.experiments.recordEvent(params.project_id, params.experiment_id, body);
  }

  @Patch('experiments/:experiment_id')
  setExperimentStatus(@Param() params: ExperimentIdParamsDto, @Body() body: SetExperimentStatusDto): Promise<ExperimentView> {
    return this.experiments.setStatus(params.project_id, params.experiment_id, body);
  }

  @Post('runs')
  recordRun(@Param() params: ProjectIdDto, @Body() body: StartRunDto): Promise<RunView> {
    return this.runs.start(params.project_id, body);
  }

  @Post('runs/:run_id/finish')
  @HttpCode(200)
  finishRun(@Param() params: RunIdParamsDto, @Body() body: FinishRunDto): Promise<RunView> {
    return this.runs.finish(params.project_id, params.run_id, body);
  }
}
