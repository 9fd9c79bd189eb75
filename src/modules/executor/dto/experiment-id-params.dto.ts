import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class ExperimentIdParamsDto extends ProjectIdDto {
  @Uuid()
  experiment_id!: string;
}
