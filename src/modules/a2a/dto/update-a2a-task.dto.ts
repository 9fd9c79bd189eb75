import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { HumanIdRules } from '../../notes/dto/human-id.rules';
import { A2A_TASK_STATES, A2aTaskState } from '../a2a.constants';

const SETTABLE = A2A_TASK_STATES.filter((s) => s !== 'submitted' && s !== 'canceled');

/** update_a2a_task: a session moves a handed-over task on; the note is what the sending agent reads. */
export class UpdateA2aTaskDto {
  @Uuid()
  task_id!: string;

  @IsIn(SETTABLE, { message: `state must be one of ${SETTABLE.join(', ')}` })
  state!: A2aTaskState;

  @OptionalField()
  @BodyText('note', 4000)
  note?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;
}
