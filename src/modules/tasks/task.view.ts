import { Task } from './task.entity';
import { TaskSource, TaskStatus } from './tasks.constants';

export interface TaskView {
  id: string;
  project_id: string;
  session_id: string | null;
  description: string;
  status: TaskStatus;
  source: TaskSource;
  claimed_by: string | null;
  claimed_at: string | null;
  created_at: string;
  updated_at: string;
}

export function toTaskView(task: Task): TaskView {
  return {
    id: task.id,
    project_id: task.project_id,
    session_id: task.session_id,
    description: task.description,
    status: task.status,
    source: task.source,
    claimed_by: task.claimed_by,
    claimed_at: task.claimed_at ? task.claimed_at.toISOString() : null,
    created_at: task.created_at.toISOString(),
    updated_at: task.updated_at.toISOString(),
  };
}
