import { Uuid } from '../../../common/validation/uuid.decorator';

export class WorkspaceDecisionIdDto {
  @Uuid()
  decision_id!: string;
}
