import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { TASK_DESCRIPTION_MAX } from '../tasks.constants';

/** POST /tasks/enqueue: work for an executor, stored as a pending task it can claim. */
export class EnqueueTaskDto {
  @Uuid()
  project_id!: string;

  /** What the executor is asked to do. */
  @BodyText('description', TASK_DESCRIPTION_MAX, { notBlank: true })
  description!: string;

  /** The session asking, when there is one. */
  @OptionalField()
  @Uuid()
  session_id?: string;
}
