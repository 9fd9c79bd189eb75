import { IsIn } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { A2A_LIST_LIMIT_MAX, A2A_TASK_STATES, A2aTaskState } from '../a2a.constants';

const FILTERS = [...A2A_TASK_STATES, 'all'] as const;

/** list_a2a_tasks: a project's tasks from other agents; open ones unless a state (or all) is named. */
export class ListA2aTasksDto {
  @Uuid()
  project_id!: string;

  @OptionalField()
  @IsIn(FILTERS, { message: `state must be one of ${FILTERS.join(', ')}` })
  state?: A2aTaskState | 'all';

  @OptionalField()
  @IntQueryParam('limit', { min: 1, max: A2A_LIST_LIMIT_MAX })
  limit?: number;
}
