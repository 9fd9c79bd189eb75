import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { TEXT_MAX } from '../executor.constants';

/** start_run: work an executor starts itself (a queued task is started by claim_queued_task). */
export class StartRunDto {
  @BodyText('description', TEXT_MAX, { notBlank: true })
  description!: string;

  @OptionalField()
  @Uuid()
  machine_id?: string;

  @OptionalField()
  @Uuid()
  session_id?: string;

  @OptionalField()
  @Uuid()
  experiment_id?: string;
}
