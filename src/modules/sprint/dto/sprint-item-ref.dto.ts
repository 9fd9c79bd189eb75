import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ItemRefRules } from './sprint-field.rules';

/** `{project_id}/sprint-items/{item_id}`: the item by id, slug or nickname, within the project. */
export class SprintItemRefDto extends ProjectIdDto {
  @ItemRefRules('item_id')
  item_id!: string;
}
