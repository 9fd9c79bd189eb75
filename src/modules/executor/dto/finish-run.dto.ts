import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { FINISHED_RUN_STATUSES, FinishedRunStatus, TEXT_MAX } from '../executor.constants';

export class FinishRunDto {
  @IsIn(FINISHED_RUN_STATUSES, { message: `status must be one of ${FINISHED_RUN_STATUSES.join(', ')}` })
  status!: FinishedRunStatus;

  @OptionalField()
  @BodyText('summary', TEXT_MAX)
  summary?: string;
}
