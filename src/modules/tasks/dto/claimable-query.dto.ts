import { IsInt, Max, Min } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { MAX_PAGE_SIZE } from './page-query.dto';
import { QueryInt } from './query.transforms';

/** GET /projects/{id}/tasks/claimable: pending tasks, oldest first (the order an executor takes them). */
export class ClaimableQueryDto {
  @OptionalField()
  @QueryInt()
  @Min(1, { message: 'limit must be at least 1' })
  @Max(MAX_PAGE_SIZE, { message: `limit must be at most ${MAX_PAGE_SIZE}` })
  @IsInt({ message: 'limit must be an integer' })
  limit?: number;
}
