import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';

/** claim_queued_task: the machine taking the oldest queued task, and the executor's session when it has one. */
export class ClaimQueuedTaskDto {
  @Uuid()
  machine_id!: string;

  @OptionalField()
  @Uuid()
  session_id?: string;
}
