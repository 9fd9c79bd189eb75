import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Uuid } from '../../../common/validation/uuid.decorator';
import { LabelRules } from '../../sprint/dto/sprint-field.rules';

/** promote_proposal: the project whose sprint gets the linked item, and its sprint version (default backlog). */
export class PromoteProposalDto {
  @Uuid()
  project_id!: string;

  @OptionalField()
  @LabelRules('version')
  version?: string;
}
