import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { WaveIdDto } from './dto/planning.dto';
import {
  AssignWavesToolDto,
  PendingCountToolDto,
  ProspectSprintItemToolDto,
  ReconcileToolDto,
  ResourceLookupToolDto,
  SetTrackStateToolDto,
  SprintBatchToolDto,
  TestCoverageToolDto,
} from './dto/sprint-tool-inputs.dto';
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
    description:
      'Label pending items with parallel-execution waves (wave-1, wave-2, ...): an item comes after the waves of what it depends on, items touching the same resource never share a wave, an item declaring no resources joins the first wave after its dependencies (undeclared_count says how many). A dependency cycle is refused.',
    input: AssignWavesToolDto,
  })
  assignWaves(input: AssignWavesToolDto) {
    return this.waves.assign(input.project_id, input.version);
  }

  @McpTool({ name: 'get_wave_summary', description: 'The immutable completion record of a wave, written when its last item finished.', input: WaveIdDto })
  waveSummary(input: WaveIdDto) {
    return this.waves.summary(input.project_id, input.wave_id);
  }

  @McpTool({
    name: 'sprint_batch',
    description: 'Apply one kind of write (create, update, complete, fail, skip, push, delete) to up to 1000 items in one transaction: all or nothing.',
    input: SprintBatchToolDto,
  })
  applyBatch(input: SprintBatchToolDto) {
    return this.batch.apply(input.project_id, { op: input.op, items: input.items });
  }

  @McpTool({ name: 'get_sprint_pending_count', description: 'How many sprint items are not finished yet, by status.', input: PendingCountToolDto })
  pendingCount(input: PendingCountToolDto) {
    return this.queries.pendingCount(input.project_id, input.version);
  }

  @McpTool({ name: 'get_test_coverage_expected', description: 'Whether the in-progress item (of a session, or any) calls for tests, and why.', input: TestCoverageToolDto })
  testCoverage(input: TestCoverageToolDto) {
    return this.queries.testCoverageExpected(input.project_id, input.session_id);
  }

  @McpTool({
    name: 'find_sprint_items_by_resource',
    description: 'The sprint items that declare a resource (e.g. file:src/app.ts) in touches_resources.',
    input: ResourceLookupToolDto,
  })
  byResource(input: ResourceLookupToolDto) {
    return this.queries.byResource(input.project_id, input.resource, input.status);
  }

  @McpTool({
    name: 'prospect_sprint_item',
    description: 'Attach concrete locations (path[:line][#symbol]) to an item that declares touches_resources, so it passes the prospect gate.',
    input: ProspectSprintItemToolDto,
  })
  prospect(input: ProspectSprintItemToolDto) {
    return this.planning.prospect(input.project_id, input.item_id, input.locations);
  }

  @McpTool({ name: 'list_sprint_tracks', description: 'The tracks (lanes) of a project with their state.', input: ProjectIdDto })
  tracks(input: ProjectIdDto) {
    return this.planning.tracks(input.project_id);
  }

  @McpTool({
    name: 'set_sprint_track',
    description: "Defer, skip or re-activate a whole track: a deferred or skipped track's items are not handed out.",
    input: SetTrackStateToolDto,
  })
  setTrack(input: SetTrackStateToolDto) {
    return this.planning.setTrack(input.project_id, input.track, input.state);
  }

  @McpTool({
    name: 'reconcile_sprint',
    description: 'Active items that recent commits of the project repository seem to have done (self-hosted; read-only).',
    input: ReconcileToolDto,
  })
  reconcile(input: ReconcileToolDto) {
    return this.reconciler.reconcile(input.project_id, input.limit);
  }
}
