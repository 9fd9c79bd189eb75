import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { AssignWavesDto, ProspectSprintItemDto, SetTrackStateDto, SprintTrackRefDto, WaveIdDto } from './dto/planning.dto';
import { SprintBatchDto } from './dto/sprint-batch.dto';
import { SprintItemRefDto } from './dto/sprint-item-ref.dto';
import { PendingCountQueryDto, ReconcileQueryDto, ResourceQueryDto, TestCoverageQueryDto } from './dto/sprint-queries.dto';
import { SprintBatchService } from './sprint-batch.service';
import { SprintPlanning } from './sprint-planning.service';
import { SprintQueries } from './sprint-queries.service';
import { SprintReconcile } from './sprint-reconcile.service';
import { SprintWaves } from './sprint-waves.service';

/** MCP tools for planning a sprint and asking about it. */
@Injectable()
export class SprintPlanningTools {
  constructor(
    private readonly waves: SprintWaves,
    private readonly batch: SprintBatchService,
    private readonly queries: SprintQueries,
    private readonly planning: SprintPlanning,
    private readonly reconciler: SprintReconcile,
  ) {}

  @McpTool({
    name: 'assign_sprint_waves',
    annotations: IDEMPOTENT_UPDATE,
    description:
      'Label pending items with parallel-execution waves (wave-1, wave-2, ...): an item comes after the waves of what it depends on, items touching the same resource never share a wave, an item declaring no resources joins the first wave after its dependencies (undeclared_count says how many). A dependency cycle is refused.',
    params: ProjectIdDto,
    body: AssignWavesDto,
  })
  assignWaves(params: ProjectIdDto, body: AssignWavesDto) {
    return this.waves.assign(params.project_id, body.version);
  }

  @McpTool({ name: 'get_wave_summary', annotations: READ_ONLY, description: 'The immutable completion record of a wave, written when its last item finished.', input: WaveIdDto })
  waveSummary(input: WaveIdDto) {
    return this.waves.summary(input.project_id, input.wave_id);
  }

  @McpTool({
    name: 'sprint_batch',
    annotations: { ...DESTRUCTIVE, idempotentHint: false },
    description: 'Apply one kind of write (create, update, complete, fail, skip, push, delete) to up to 1000 items in one transaction: all or nothing.',
    params: ProjectIdDto,
    body: SprintBatchDto,
  })
  applyBatch(params: ProjectIdDto, body: SprintBatchDto) {
    return this.batch.apply(params.project_id, { op: body.op, items: body.items });
  }

  @McpTool({
    name: 'get_sprint_pending_count',
    annotations: READ_ONLY,
    description: 'How many sprint items are not finished yet, by status.',
    params: ProjectIdDto,
    body: PendingCountQueryDto,
  })
  pendingCount(params: ProjectIdDto, query: PendingCountQueryDto) {
    return this.queries.pendingCount(params.project_id, query.version);
  }

  @McpTool({
    name: 'get_test_coverage_expected',
    annotations: READ_ONLY,
    description: 'Whether the in-progress item (of a session, or any) calls for tests, and why.',
    params: ProjectIdDto,
    body: TestCoverageQueryDto,
  })
  testCoverage(params: ProjectIdDto, query: TestCoverageQueryDto) {
    return this.queries.testCoverageExpected(params.project_id, query.session_id);
  }

  @McpTool({
    name: 'find_sprint_items_by_resource',
    annotations: READ_ONLY,
    description: 'The sprint items that declare a resource (e.g. file:src/app.ts) in touches_resources.',
    params: ProjectIdDto,
    body: ResourceQueryDto,
  })
  byResource(params: ProjectIdDto, query: ResourceQueryDto) {
    return this.queries.byResource(params.project_id, query.resource, query.status);
  }

  @McpTool({
    name: 'prospect_sprint_item',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Attach concrete locations (path[:line][#symbol]) to an item that declares touches_resources, so it passes the prospect gate.',
    params: SprintItemRefDto,
    body: ProspectSprintItemDto,
  })
  prospect(params: SprintItemRefDto, body: ProspectSprintItemDto) {
    return this.planning.prospect(params.project_id, params.item_id, body.locations);
  }

  @McpTool({ name: 'list_sprint_tracks', annotations: READ_ONLY, description: 'The tracks (lanes) of a project with their state.', input: ProjectIdDto })
  tracks(input: ProjectIdDto) {
    return this.planning.tracks(input.project_id);
  }

  @McpTool({
    name: 'set_sprint_track',
    annotations: IDEMPOTENT_UPDATE,
    description: "Defer, skip or re-activate a whole track: a deferred or skipped track's items are not handed out.",
    params: SprintTrackRefDto,
    body: SetTrackStateDto,
  })
  setTrack(params: SprintTrackRefDto, body: SetTrackStateDto) {
    return this.planning.setTrack(params.project_id, params.track, body.state);
  }

  @McpTool({
    name: 'reconcile_sprint',
    annotations: READ_ONLY,
    description: 'Active items that recent commits of the project repository seem to have done (self-hosted; read-only).',
    params: ProjectIdDto,
    body: ReconcileQueryDto,
  })
  reconcile(params: ProjectIdDto, query: ReconcileQueryDto) {
    return this.reconciler.reconcile(params.project_id, query.limit);
  }
}
