import { IsUUID } from 'class-validator';

/** POST /projects/{id}/tasks/release: only the session that claimed the task can hand it back. */
export class ReleaseTaskDto {
  @IsUUID('all', { message: 'task_id must be a UUID' })
  task_id!: string;

  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id!: string;
}
