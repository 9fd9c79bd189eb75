import { IsInt, Max, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';

export class ArchiveOldestDto {
  /** How many of the oldest active decisions to archive; default 1. */
  @OptionalField()
  @Min(1, { message: 'count must be at least 1' })
  @Max(500, { message: 'count must be at most 500' })
  @IsInt({ message: 'count must be an integer' })
  count?: number;
}
