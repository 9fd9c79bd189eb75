import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AssignWavesDto, SetTrackStateDto, SprintTrackRefDto, WaveIdDto } from './dto/planning.dto';
import { SprintBatchDto } from './dto/sprint-batch.dto';
import { PendingCountQueryDto, ReconcileQueryDto, ResourceQueryDto, SprintGatesQueryDto, TestCoverageQueryDto } from './dto/sprint-queries.dto';
import { SprintBatchResult, SprintBatchService } from './sprint-batch.service';
import { SprintItemView } from './sprint-item.view';
import { SprintPlanning, TrackView } from './sprint-planning.service';
import { PendingCount, SprintGates, SprintQueries, TestCoverageExpected } from './sprint-queries.service';
import { ReconcileReport, SprintReconcile } from './sprint-reconcile.service';
import { SprintWaves, WaveAssignment, WaveSummaryView } from './sprint-waves.service';

/** The sprint routes around the items: batch, counts, reverse lookup, waves, tracks, reconcile. */
@Controller('projects/:project_id')
export class SprintController {
  constructor(
    private readonly batch: SprintBatchService,
    private readonly queries: SprintQueries,
    private readonly waves: SprintWaves,
    private readonly planning: SprintPlanning,
    private readonly reconciler: SprintReconcile,
  ) {}

  @Post('sprint-batch')
  @HttpCode(200)
  applyBatch(@Param() params: ProjectIdDto, @Body() body: SprintBatchDto): Promise<SprintBatchResult> {
    return this.batch.apply(params.project_id, body);
  }

  @Get('sprint/pending_count')
  pendingCount(@Param() params: ProjectIdDto, @Query() query: PendingCountQueryDto): Promise<PendingCount> {
    return this.queries.pendingCount(params.project_id, query.version);
  }

  @Get('sprint/gates')
  gates(@Param() params: ProjectIdDto, @Query() query: SprintGatesQueryDto): Promise<SprintGates> {
    return this.queries.gates(params.project_id, query.claimant);
  }

  @Get('sprint/test_coverage_expected')
  testCoverage(@Param() params: ProjectIdDto, @Query() query: TestCoverageQueryDto): Promise<TestCoverageExpected> {
    return this.queries.testCoverageExpected(params.project_id, query.session_id);
  }

  @Post('sprint/assign-waves')
  @HttpCode(200)
  assignWaves(@Param() params: ProjectIdDto, @Body() body: AssignWavesDto): Promise<WaveAssignment> {
    return this.waves.assign(params.project_id, body.version);
  }

  @Get('resources/sprint-items')
  byResource(@Param() params: ProjectIdDto, @Query() query: ResourceQueryDto): Promise<SprintItemView[]> {
    return this.queries.byResource(params.project_id, query.resource, query.status);
  }

  @Get('wave-summary/:wave_id')
  waveSummary(@Param() params: WaveIdDto): Promise<WaveSummaryView> {
    return this.waves.summary(params.project_id, params.wave_id);
  }

  @Get('sprint-tracks')
  tracks(@Param() params: ProjectIdDto): Promise<TrackView[]> {
    return this.planning.tracks(params.project_id);
  }

  @Put('sprint-tracks/:track')
  setTrack(@Param() params: SprintTrackRefDto, @Body() body: SetTrackStateDto): Promise<TrackView> {
    return this.planning.setTrack(params.project_id, params.track, body.state);
  }

  @Get('reconcile')
  reconcile(@Param() params: ProjectIdDto, @Query() query: ReconcileQueryDto): Promise<ReconcileReport> {
    return this.reconciler.reconcile(params.project_id, query.limit);
  }
}
