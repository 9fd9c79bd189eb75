import { IsIn } from 'class-validator';
import { IntQueryParam } from '../../../common/validation/int-query-param.decorator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PROPOSAL_LIST_LIMIT_MAX, PROPOSAL_STATUSES, ProposalStatus } from '../proposals.constants';

/** get_workspace_proposals: newest first, optionally one status. */
export class ListProposalsDto {
  @OptionalField()
  @IsIn(PROPOSAL_STATUSES, { message: `status must be one of ${PROPOSAL_STATUSES.join(', ')}` })
  status?: ProposalStatus;

  @OptionalField()
  @IntQueryParam('limit', { min: 1, max: PROPOSAL_LIST_LIMIT_MAX })
  limit?: number;

  @OptionalField()
  @IntQueryParam('offset', { min: 0 })
  offset?: number;
}
