import { IsString } from 'class-validator';
import { RequiredOrNull } from '../../../common/validation/required-or-null.decorator';
import { Trim } from '../../../common/validation/trim.transform';
import { IsSingleEmoji } from './is-single-emoji.decorator';

/** PATCH .../icon: exactly one emoji, or null to clear it. The field is required. */
export class SetIconDto {
  @RequiredOrNull()
  @Trim()
  @IsString({ message: 'icon must be one emoji, or null to clear it' })
  @IsSingleEmoji()
  icon!: string | null;
}
