import { OptionalNotNull } from '../../../common/validation/optional-not-null.decorator';
import { ProjectIdDto } from '../../projects/dto/project-id.dto';
import { ItemRefRules } from './sprint-field.rules';

/**
 * claim_sprint_item's target: one tool covers both claim routes, so the item (id, slug or nickname)
 * is optional here where the item route requires it. Left out: the next claimable item. Null is
 * refused, as it would reach the item lookup.
 */
export class SprintItemChoiceDto extends ProjectIdDto {
  @OptionalNotNull()
  @ItemRefRules('item_id')
  item_id?: string;
}
