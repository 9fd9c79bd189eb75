import { IsIn } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { INSIGHT_HORIZONS, InsightHorizon, NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';

export class CreateInsightDto {
  @Title('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyText('body', NOTE_BODY_MAX)
  body?: string;

  /** How long it is expected to hold; default quarter. */
  @OptionalField()
  @IsIn(INSIGHT_HORIZONS, { message: `horizon must be one of ${INSIGHT_HORIZONS.join(', ')}` })
  horizon?: InsightHorizon;
}
