import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class NoteIdParamsDto extends ProjectIdDto {
  @Uuid()
  note_id!: string;
}
