import { Transform } from 'class-transformer';
import { IsString, ValidateIf } from 'class-validator';
import { IsSingleEmoji } from './is-single-emoji.decorator';

/** PATCH .../icon: exactly one emoji, or null to clear it. The field is required. */
export class SetIconDto {
  @ValidateIf((_object, value) => value !== null)
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'icon must be one emoji, or null to clear it' })
  @IsSingleEmoji()
  icon!: string | null;
}
