import { Uuid } from '../../../common/validation/uuid.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';

export class WorktreeIdParamsDto extends ProjectIdDto {
  @Uuid()
  worktree_id!: string;
}
