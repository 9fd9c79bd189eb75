import { IsBoolean } from 'class-validator';
import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { GOAL_CONTENT_MAX } from '../goals.constants';
import { NorthStarRules, SprintLabelRules } from './goal-field.rules';

/** POST /projects/{id}/goal. */
export class SetGoalDto {
  /** Free text; may hold AUTO BLOCKS. */
  @BodyText('content', GOAL_CONTENT_MAX)
  content!: string;

  @OptionalField()
  @NorthStarRules()
  north_star?: string;

  @OptionalField()
  @SprintLabelRules()
  sprint?: string;

  /** Update in place without a new version (AUTO BLOCK refreshes). */
  @OptionalField()
  @IsBoolean({ message: 'minor must be a boolean' })
  minor?: boolean;
}
