import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { DEFAULT_PAGE_SIZE, PageQueryDto } from '../tasks/dto/page-query.dto';
import { ListExperimentsQueryDto } from './dto/list-experiments-query.dto';
import { RecordExperimentEventDto } from './dto/record-experiment-event.dto';
import { RecordExperimentDto } from './dto/record-experiment.dto';
import { SetExperimentStatusDto } from './dto/set-experiment-status.dto';
import { ExperimentEventView, ExperimentView, toExperimentEventView, toExperimentView } from './executor.views';
import { ExperimentEvent } from './experiment-event.entity';
import { Experiment } from './experiment.entity';
import { RunsService } from './runs.service';

/** Experiments executors carry out, with what happened in them (events); their runs are executor runs naming them. */
@Injectable()
export class ExperimentsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly runs: RunsService,
  ) {}

  /** Newest first, optionally of one status. */
  async list(projectId: string, query: ListExperimentsQueryDto): Promise<ExperimentView[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const found = await m.find(Experiment, {
        where: { project_id: projectId, ...(query.status ? { status: query.status } : {}) },
        order: { created_at: 'DESC', id: 'DESC' },
        take: query.limit ?? DEFAULT_PAGE_SIZE,
        skip: query.offset ?? 0,
      });
      return found.map(toExperimentView);
    });
  }

  async record(projectId: string, input: RecordExperimentDto): Promise<ExperimentView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const now = this.clock.now();
      const experiment: Experiment = {
        id: randomUUID(),
        project_id: projectId,
        name: input.name,
        hypothesis: input.hypothesis ?? '',
        status: 'running',
        created_at: now,
        updated_at: now,
      };
      await m.insert(Experiment, experiment);
      return toExperimentView(experiment);
    });
  }

  async setStatus(projectId: string, experimentId: string, input: SetExperimentStatusDto): Promise<ExperimentView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const experiment = await this.runs.requireExperiment(m, projectId, experimentId);
      experiment.status = input.status;
      experiment.updated_at = this.clock.now();
      await m.update(Experiment, { id: experiment.id }, { status: experiment.status, updated_at: experiment.updated_at });
      return toExperimentView(experiment);
    });
  }

  /** Oldest first: an experiment's story in the order it happened. */
  async events(projectId: string, experimentId: string, query: PageQueryDto): Promise<ExperimentEventView[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      await this.runs.requireExperiment(m, projectId, experimentId);
      const events = await m.find(ExperimentEvent, {
        where: { experiment_id: experimentId },
        order: { created_at: 'ASC', id: 'ASC' },
        take: query.limit ?? DEFAULT_PAGE_SIZE,
        skip: query.offset ?? 0,
      });
      return events.map(toExperimentEventView);
    });
  }

  async recordEvent(projectId: string, experimentId: string, input: RecordExperimentEventDto): Promise<ExperimentEventView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      await this.runs.requireExperiment(m, projectId, experimentId);
      const event: ExperimentEvent = { id: randomUUID(), project_id: projectId, experiment_id: experimentId, kind: input.kind, body: input.body, created_at: this.clock.now() };
      await m.insert(ExperimentEvent, event);
      return toExperimentEventView(event);
    });
  }
}
