import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { TASK_DESCRIPTION_MAX, TASK_STATUSES, TaskStatus } from '../tasks.constants';

/** PATCH /tasks/{id}: the fields given change; status moves follow the task transitions. */
export class UpdateTaskDto {
  @OptionalField()
  @IsIn(TASK_STATUSES, { message: `status must be one of ${TASK_STATUSES.join(', ')}` })
  status?: TaskStatus;

  @OptionalField()
  @BodyText('description', TASK_DESCRIPTION_MAX, { notBlank: true })
  description?: string;
}
