import { IsIn } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PageQueryDto } from '../../tasks/dto/page-query.dto';
import { EXPERIMENT_STATUSES, ExperimentStatus } from '../executor.constants';

/** GET .../experiments: newest first, optionally of one status. */
export class ListExperimentsQueryDto extends PageQueryDto {
  @OptionalField()
  @IsIn(EXPERIMENT_STATUSES, { message: `status must be one of ${EXPERIMENT_STATUSES.join(', ')}` })
  status?: ExperimentStatus;
}
