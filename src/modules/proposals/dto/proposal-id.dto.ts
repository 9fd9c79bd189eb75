import { Uuid } from '../../../common/validation/uuid.decorator';

export class ProposalIdDto {
  @Uuid()
  proposal_id!: string;
}
