import { Uuid } from '../../../common/validation/uuid.decorator';

/** `GET /a2a/{agent_id}/tasks/{task_id}`. */
export class A2aTaskPathDto {
  @Uuid()
  agent_id!: string;

  @Uuid()
  task_id!: string;
}
