import { IsUUID } from 'class-validator';

export class TaskIdDto {
  @IsUUID('all', { message: 'task_id must be a UUID' })
  task_id!: string;
}
