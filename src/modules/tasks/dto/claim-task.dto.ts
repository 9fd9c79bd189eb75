import { IsUUID } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

/** POST /projects/{id}/tasks/claim: one task by id, or (without task_id) the oldest pending one. */
export class ClaimTaskDto {
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;

  @OptionalField()
  @IsUUID('all', { message: 'task_id must be a UUID' })
  task_id?: string;
}
