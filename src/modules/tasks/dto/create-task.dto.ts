import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { TASK_DESCRIPTION_MAX, TASK_STATUSES, TaskStatus } from '../tasks.constants';

/** POST /tasks: an entry of the task log, written by a session of the project. */
export class CreateTaskDto {
  @Uuid()
  session_id!: string;

  @Uuid()
  project_id!: string;

  @BodyText('description', TASK_DESCRIPTION_MAX, { notBlank: true })
  description!: string;

  /** Default `done`: a log entry records work that was done. */
  @OptionalField()
  @IsIn(TASK_STATUSES, { message: `status must be one of ${TASK_STATUSES.join(', ')}` })
  status?: TaskStatus;
}
