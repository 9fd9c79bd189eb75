import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

/** The `{project_id}` and `{session_id}` of GET .../sessions/{session_id}/tasks/live. */
export class ProjectSessionParamsDto extends ProjectIdDto {
  @Uuid()
  session_id!: string;
}
