import { IsIn, IsObject, IsString, Matches } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { BATCH_READ_NAMES, BatchReadName } from '../batch-read.constants';

/** One read of a batch: its kind, the arguments its own tool takes, and an optional key echoed in the answer. */
export class BatchReadItemDto {
  @IsIn(BATCH_READ_NAMES, { message: `read must be one of ${BATCH_READ_NAMES.join(', ')}` })
  read!: BatchReadName;

  @OptionalField()
  @IsObject({ message: 'args must be a JSON object' })
  args?: Record<string, unknown>;

  @OptionalField()
  @IsString({ message: 'key must be a string' })
  @Matches(/^[\w.:-]{1,64}$/, { message: 'key must be 1 to 64 letters, digits, _ . : or -' })
  key?: string;
}
