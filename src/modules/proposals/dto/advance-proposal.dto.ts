import { IsIn } from 'class-validator';
import { OptionalField } from '../../../common/validation/optional-field.decorator';
import { PROPOSAL_DIRECTIONS, ProposalDirection } from '../proposals.constants';

/** advance_proposal_status: one step along raw → investigating → rejected, or back (default forward). */
export class AdvanceProposalDto {
  @OptionalField()
  @IsIn(PROPOSAL_DIRECTIONS, { message: `direction must be one of ${PROPOSAL_DIRECTIONS.join(', ')}` })
  direction?: ProposalDirection;
}
