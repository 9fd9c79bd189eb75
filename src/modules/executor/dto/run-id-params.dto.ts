import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class RunIdParamsDto extends ProjectIdDto {
  @Uuid()
  run_id!: string;
}
