import { IsUUID } from 'class-validator';
import { TASK_DESCRIPTION_MAX } from '../tasks.constants';
import { BodyRules, OptionalField } from './field.rules';

/** POST /tasks/enqueue: work for an executor, stored as a pending task it can claim. */
export class EnqueueTaskDto {
  @IsUUID('all', { message: 'project_id must be a UUID' })
  project_id!: string;

  /** What the executor is asked to do. */
  @BodyRules('description', TASK_DESCRIPTION_MAX, { notBlank: true })
  description!: string;

  /** The session asking, when there is one. */
  @OptionalField()
  @IsUUID('all', { message: 'session_id must be a UUID' })
  session_id?: string;
}
