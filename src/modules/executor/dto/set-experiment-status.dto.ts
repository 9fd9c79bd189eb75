import { IsIn } from 'class-validator';
import { EXPERIMENT_STATUSES, ExperimentStatus } from '../executor.constants';

export class SetExperimentStatusDto {
  @IsIn(EXPERIMENT_STATUSES, { message: `status must be one of ${EXPERIMENT_STATUSES.join(', ')}` })
  status!: ExperimentStatus;
}
