import { Uuid } from '../../../common/validation/uuid.decorator';

/** POST /projects/{id}/tasks/release: only the session that claimed the task can hand it back. */
export class ReleaseTaskDto {
  @Uuid()
  task_id!: string;

  @Uuid()
  session_id!: string;
}
