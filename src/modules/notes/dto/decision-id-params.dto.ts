import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class DecisionIdParamsDto extends ProjectIdDto {
  @Uuid()
  decision_id!: string;
}
