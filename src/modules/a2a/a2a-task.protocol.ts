import { Message, Role, Task, TaskState } from '@a2a-js/sdk';
import { A2aTaskState } from './a2a.constants';
import { A2aTask } from './a2a-task.entity';

const TO_PROTOCOL: Record<A2aTaskState, TaskState> = {
  submitted: TaskState.TASK_STATE_SUBMITTED,
  working: TaskState.TASK_STATE_WORKING,
  input_required: TaskState.TASK_STATE_INPUT_REQUIRED,
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
  rejected: TaskState.TASK_STATE_REJECTED,
};

/**
 * A stored task as A2A 1.0's Task, in the protocol's JSON form (the SDK's own
 * serialiser): the received message is its history, and the team's last note,
 * if any, the status message from the agent's side.
 */
export function toProtocolTask(task: A2aTask): Record<string, unknown> {
  const received = Message.fromJSON(JSON.parse(task.message));
  received.taskId = task.id;
  received.contextId = task.context_id;
  const note: Message | undefined = task.status_note
    ? {
        messageId: `${task.id}:${task.updated_at.getTime()}`,
        contextId: task.context_id,
        taskId: task.id,
        role: Role.ROLE_AGENT,
        parts: [{ content: { $case: 'text', value: task.status_note }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      }
    : undefined;
  const value: Task = {
    id: task.id,
    contextId: task.context_id,
    status: { state: TO_PROTOCOL[task.state], message: note, timestamp: task.updated_at.toISOString() },
    artifacts: [],
    history: [received],
    metadata: { project_id: task.project_id, title: task.title },
  };
  return Task.toJSON(value) as Record<string, unknown>;
}
