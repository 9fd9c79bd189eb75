import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { requireProject } from '../projects/require-project.util';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { Task } from '../tasks/task.entity';
import { insertTask } from '../tasks/task-rows';
import { TaskView, toTaskView } from '../tasks/task.view';
import { FrameworkEventDto } from './dto/framework-event.dto';
import { EVENT_DESCRIPTION_MAX } from './time.constants';

/**
 * POST .../events: an agent framework's event, normalised into one entry of the task log.
 * A tool call, tool result, step or message is work done (`done`); an error is `failed`.
 */
@Injectable()
export class FrameworkEventsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly realtime: RealtimeEvents,
  ) {}

  async record(projectId: string, event: FrameworkEventDto): Promise<TaskView> {
    const needsName = event.kind === 'tool_use' || event.kind === 'tool_result' || event.kind === 'step';
    if (needsName && event.name === undefined) throw RequestError.invalidInput(`name is required for a ${event.kind} event (the tool or step)`);
    if (!needsName && event.text === undefined) throw RequestError.invalidInput(`text is required for a ${event.kind} event`);
    const view = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (event.session_id) await requireSessionOf(m, event.session_id, projectId);
      const now = this.clock.now();
      const task: Omit<Task, 'seq'> = {
        id: randomUUID(),
        project_id: projectId,
        session_id: event.session_id ?? null,
        description: describe(event),
        status: event.kind === 'error' ? 'failed' : 'done',
        source: 'log',
        claimed_by: null,
        claimed_at: null,
        created_at: now,
        updated_at: now,
      };
      await insertTask(m, this.db.dialect, task);
      return toTaskView({ ...task, seq: 0 });
    });
    this.realtime.publish({ tenantId: currentTenant().tenantId, event: 'task_logged', data: { task: view } });
    return view;
  }
}

/** `[langgraph] tool_use search_docs: query "x"`, cut to EVENT_DESCRIPTION_MAX characters. */
export function describe(event: FrameworkEventDto): string {
  const head = `${event.framework ? `[${event.framework.trim()}] ` : ''}${event.kind}${event.name ? ` ${event.name.trim()}` : ''}`;
  const text = event.text ? `${head}: ${event.text.trim()}` : head;
  return text.length <= EVENT_DESCRIPTION_MAX ? text : `${text.slice(0, EVENT_DESCRIPTION_MAX - 1)}…`;
}
