import { Uuid } from '../../../common/validation/uuid.decorator';

export class TaskIdDto {
  @Uuid()
  task_id!: string;
}
