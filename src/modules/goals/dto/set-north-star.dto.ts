import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { NorthStarRules } from './goal-field.rules';

export class SetNorthStarDto {
  @NorthStarRules()
  north_star!: string;

  /** Who sets it; shown as north_star_by. */
  @OptionalField()
  @IsString({ message: 'human_id must be a string' })
  @IsNotEmpty({ message: 'human_id must not be empty' })
  @MaxLength(200, { message: 'human_id must be at most 200 characters' })
  human_id?: string;
}
