import { IsUUID } from 'class-validator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class NoteIdParamsDto extends ProjectIdDto {
  @IsUUID('all', { message: 'note_id must be a UUID' })
  note_id!: string;
}
