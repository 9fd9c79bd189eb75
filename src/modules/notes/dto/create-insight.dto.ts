import { IsIn } from 'class-validator';
import { BodyRules, OptionalField, TitleRules } from '../../tasks/dto/field.rules';
import { INSIGHT_HORIZONS, InsightHorizon, NOTE_BODY_MAX, NOTE_TITLE_MAX } from '../notes.constants';

export class CreateInsightDto {
  @TitleRules('title', NOTE_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyRules('body', NOTE_BODY_MAX)
  body?: string;

  /** How long it is expected to hold; default quarter. */
  @OptionalField()
  @IsIn(INSIGHT_HORIZONS, { message: `horizon must be one of ${INSIGHT_HORIZONS.join(', ')}` })
  horizon?: InsightHorizon;
}
