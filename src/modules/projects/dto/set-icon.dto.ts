import { IsString, ValidateIf } from 'class-validator';
import { Trim } from '../../../common/validation/trim.transform';
import { IsSingleEmoji } from './is-single-emoji.decorator';

/** PATCH .../icon: exactly one emoji, or null to clear it. The field is required. */
export class SetIconDto {
  @ValidateIf((_object, value) => value !== null)
  @Trim()
  @IsString({ message: 'icon must be one emoji, or null to clear it' })
  @IsSingleEmoji()
  icon!: string | null;
}
