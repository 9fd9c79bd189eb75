import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** POST /projects/{id}/tasks/claim: one task by id, or (without task_id) the oldest pending one. */
export class ClaimTaskDto {
  @Uuid()
  session_id!: string;

  @OptionalField()
  @Uuid()
  task_id?: string;
}
