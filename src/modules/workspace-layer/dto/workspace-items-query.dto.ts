import { IsIn } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { WORKSPACE_ITEM_STATUSES, WorkspaceItemStatus } from '../workspace-layer.constants';

const FILTERS = [...WORKSPACE_ITEM_STATUSES, 'all'] as const;

/** GET /workspace/sprint-items: every item (default, or `all`), or those of one status. */
export class WorkspaceItemsQueryDto {
  @OptionalField()
  @IsIn(FILTERS, { message: `status must be one of ${FILTERS.join(', ')}` })
  status?: WorkspaceItemStatus | 'all';
}
