import { IsIn } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { TASK_STATUSES, TaskStatus } from '../tasks.constants';
import { PageQueryDto } from './page-query.dto';

/** GET /projects/{id}/tasks: newest first, `limit` (default 50, at most 200), `offset`, optional `status`. */
export class ListTasksQueryDto extends PageQueryDto {
  @OptionalField()
  @IsIn(TASK_STATUSES, { message: `status must be one of ${TASK_STATUSES.join(', ')}` })
  status?: TaskStatus;
}
