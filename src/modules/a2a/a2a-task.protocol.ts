import type { Message, Task, TaskState } from '@a2a-js/sdk';
import { A2aTaskState } from './a2a.constants';
import { a2aSdk } from './a2a-sdk';
import { A2aTask } from './a2a-task.entity';

/** The protocol's state of each stored state (the SDK's enum, read when a task is first answered). */
function protocolState(state: A2aTaskState): TaskState {
  const { TaskState } = a2aSdk();
  const states = {
    submitted: TaskState.TASK_STATE_SUBMITTED,
    working: TaskState.TASK_STATE_WORKING,
    input_required: TaskState.TASK_STATE_INPUT_REQUIRED,
    completed: TaskState.TASK_STATE_COMPLETED,
    failed: TaskState.TASK_STATE_FAILED,
    canceled: TaskState.TASK_STATE_CANCELED,
    rejected: TaskState.TASK_STATE_REJECTED,
  } satisfies Record<A2aTaskState, TaskState>;
  return states[state];
}

/**
 * A stored task as A2A 1.0's Task, in the protocol's JSON form (the SDK's own
 * serialiser): the received message is its history, and the team's last note,
 * if any, the status message from the agent's side.
 */
export function toProtocolTask(task: A2aTask): Record<string, unknown> {
  const { Message: Messages, Role, Task: Tasks } = a2aSdk();
  const received = Messages.fromJSON(JSON.parse(task.message));
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
    status: { state: protocolState(task.state), message: note, timestamp: task.updated_at.toISOString() },
    artifacts: [],
    history: [received],
    metadata: { project_id: task.project_id, title: task.title },
  };
  return Tasks.toJSON(value) as Record<string, unknown>;
}
