import { IntersectionType } from '@nestjs/mapped-types';
import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { AddSubtaskDto } from './add-subtask.dto';
import { ClaimSprintItemDto, ReleaseSprintItemDto } from './claim-sprint-item.dto';
import { CreateSprintItemDto } from './create-sprint-item.dto';
import { AssignWavesDto, ProspectSprintItemDto, SetTrackStateDto, SprintTrackRefDto } from './planning.dto';
import { ItemRefRules } from './sprint-field.rules';
import { SprintBatchDto } from './sprint-batch.dto';
import { SprintItemRefDto } from './sprint-item-ref.dto';
import { ListSprintItemsQueryDto, PendingCountQueryDto, ReconcileQueryDto, ResourceQueryDto, TestCoverageQueryDto } from './sprint-queries.dto';
import { CloseSprintItemDto, CompleteSprintItemDto, PushSprintItemDto } from './transition.dto';
import { UpdateSprintItemDto } from './update-sprint-item.dto';

/* Arguments of the sprint MCP tools: a route's path parameters and body (or query) together. */

export class AddSprintItemToolDto extends IntersectionType(ProjectIdDto, CreateSprintItemDto) {}
export class ListSprintItemsToolDto extends IntersectionType(ProjectIdDto, ListSprintItemsQueryDto) {}
export class UpdateSprintItemToolDto extends IntersectionType(SprintItemRefDto, UpdateSprintItemDto) {}
export class CompleteSprintItemToolDto extends IntersectionType(SprintItemRefDto, CompleteSprintItemDto) {}
export class CloseSprintItemToolDto extends IntersectionType(SprintItemRefDto, CloseSprintItemDto) {}
export class PushSprintItemToolDto extends IntersectionType(SprintItemRefDto, PushSprintItemDto) {}
export class ReleaseSprintItemToolDto extends IntersectionType(SprintItemRefDto, ReleaseSprintItemDto) {}
export class ProspectSprintItemToolDto extends IntersectionType(SprintItemRefDto, ProspectSprintItemDto) {}
export class AssignWavesToolDto extends IntersectionType(ProjectIdDto, AssignWavesDto) {}
export class SetTrackStateToolDto extends IntersectionType(SprintTrackRefDto, SetTrackStateDto) {}
export class SprintBatchToolDto extends IntersectionType(ProjectIdDto, SprintBatchDto) {}
export class ResourceLookupToolDto extends IntersectionType(ProjectIdDto, ResourceQueryDto) {}
export class PendingCountToolDto extends IntersectionType(ProjectIdDto, PendingCountQueryDto) {}
export class TestCoverageToolDto extends IntersectionType(ProjectIdDto, TestCoverageQueryDto) {}
export class ReconcileToolDto extends IntersectionType(ProjectIdDto, ReconcileQueryDto) {}

/** claim_sprint_item: a given item (item_id: id, slug or nickname), or without item_id the next claimable one. */
export class ClaimSprintItemToolDto extends IntersectionType(ProjectIdDto, ClaimSprintItemDto) {
  /** Left out: the next claimable item. Null is refused (it would reach the item lookup). */
  @OptionalNotNull()
  @ItemRefRules('item_id')
  item_id?: string;
}

/** add_subtask: the parent (id, slug or nickname) and the subtask. */
export class AddSubtaskToolDto extends IntersectionType(ProjectIdDto, AddSubtaskDto) {
  @ItemRefRules('parent_id')
  parent_id!: string;
}
