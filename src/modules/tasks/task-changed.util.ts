import { currentTenant } from '../../../libs/tenancy';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { Task } from './task.entity';

/** How a task changed, as dashboards (and the board-read cache) hear it. */
export type TaskChange = 'claimed' | 'released' | 'requeued' | 'updated' | 'finished' | 'deleted';

/**
 * Tells the tenant's dashboards, once the change has committed, that a task's status or text
 * changed: the context block lists recent tasks with their status, so a cached board is dropped
 * too (BoardReadCache). A logged task is `task_logged` instead.
 */
export function publishTaskChanged(realtime: RealtimeEvents, task: Pick<Task, 'id' | 'project_id' | 'status'>, change: TaskChange): void {
  realtime.publish({ tenantId: currentTenant().tenantId, event: 'task_changed', data: { project_id: task.project_id, task_id: task.id, status: task.status, change } });
}
