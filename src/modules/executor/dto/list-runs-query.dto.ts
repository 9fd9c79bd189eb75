import { IsIn } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';
import { RUN_STATUSES, RunStatus } from '../executor.constants';

/** GET .../runs: newest first, optionally of one status. */
export class ListRunsQueryDto extends PageQueryDto {
  @OptionalField()
  @IsIn(RUN_STATUSES, { message: `status must be one of ${RUN_STATUSES.join(', ')}` })
  status?: RunStatus;
}
