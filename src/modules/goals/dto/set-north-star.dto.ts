import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { NorthStarRules } from './goal-field.rules';
import { OptionalField } from '../../tasks/dto/field.rules';

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
