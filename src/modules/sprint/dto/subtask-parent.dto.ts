import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ItemRefRules } from './sprint-field.rules';

/** add_subtask's parent item (id, slug or nickname); the tool names it parent_id where the route's path says item_id. */
export class SubtaskParentDto extends ProjectIdDto {
  @ItemRefRules('parent_id')
  parent_id!: string;
}
