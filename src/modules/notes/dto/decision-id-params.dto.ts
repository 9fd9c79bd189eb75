import { IsUUID } from 'class-validator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class DecisionIdParamsDto extends ProjectIdDto {
  @IsUUID('all', { message: 'decision_id must be a UUID' })
  decision_id!: string;
}
