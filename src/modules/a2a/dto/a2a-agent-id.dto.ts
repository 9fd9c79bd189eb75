import { Uuid } from '../../../common/validation/uuid.decorator';

/** The `{agent_id}` of the A2A routes: a project of the caller's workspace. */
export class A2aAgentIdDto {
  @Uuid()
  agent_id!: string;
}
