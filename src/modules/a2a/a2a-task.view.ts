import { A2aTaskState } from './a2a.constants';
import { A2aTask } from './a2a-task.entity';

/** How the project's sessions see a task an agent handed over (list_a2a_tasks, update_a2a_task). */
export interface A2aTaskView {
  id: string;
  project_id: string;
  context_id: string;
  state: A2aTaskState;
  title: string;
  text: string;
  sender: string | null;
  status_note: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export function toA2aTaskView(task: A2aTask): A2aTaskView {
  const message = JSON.parse(task.message) as { parts?: { text?: unknown }[] };
  const text = (message.parts ?? [])
    .map((p) => (typeof p.text === 'string' ? p.text : ''))
    .filter(Boolean)
    .join('\n');
  return {
    id: task.id,
    project_id: task.project_id,
    context_id: task.context_id,
    state: task.state,
    title: task.title,
    text,
    sender: task.sender,
    status_note: task.status_note,
    updated_by: task.updated_by,
    created_at: task.created_at.toISOString(),
    updated_at: task.updated_at.toISOString(),
  };
}
