import { IsIn } from 'class-validator';
import { TASK_DESCRIPTION_MAX, TASK_STATUSES, TaskStatus } from '../tasks.constants';
import { BodyRules, OptionalField } from './field.rules';

/** PATCH /tasks/{id}: the fields given change; status moves follow the task transitions. */
export class UpdateTaskDto {
  @OptionalField()
  @IsIn(TASK_STATUSES, { message: `status must be one of ${TASK_STATUSES.join(', ')}` })
  status?: TaskStatus;

  @OptionalField()
  @BodyRules('description', TASK_DESCRIPTION_MAX, { notBlank: true })
  description?: string;
}
