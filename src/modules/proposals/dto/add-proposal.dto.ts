import { BodyText } from '../../../common/validation/body-text.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { HumanIdRules } from '../../notes/dto/human-id.rules';
import { PROPOSAL_BODY_MAX, PROPOSAL_TITLE_MAX } from '../proposals.constants';

/** add_workspace_proposal: a new idea, stored as raw. */
export class AddProposalDto {
  @Title('title', PROPOSAL_TITLE_MAX)
  title!: string;

  @OptionalField()
  @BodyText('body', PROPOSAL_BODY_MAX)
  body?: string;

  @OptionalField()
  @HumanIdRules()
  human_id?: string;
}
