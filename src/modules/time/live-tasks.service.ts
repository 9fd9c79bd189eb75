import { ShutdownDrain } from '../../common/lifecycle/shutdown-drain';
import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { MoreThan } from 'typeorm';
import { currentTenant, runWithTenant, TenantDb } from '../../../libs/tenancy';
import { RealtimeEvent, RealtimeEvents } from '../../common/events/realtime-events';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { requireSessionOf } from '../tasks/session-of-project.util';
import { Task } from '../tasks/task.entity';
import { toTaskView } from '../tasks/task.view';

/** A comment line every so often keeps proxies from closing a quiet stream. */
const KEEPALIVE_MS = 15_000;

/**
 * GET .../sessions/{session_id}/tasks/live: Server-Sent Events of a session's task log, its
 * entries so far and then each new one (`event: task`), until the session closes
 * (`event: session_closed`, then the stream ends) or the client leaves. Nothing polls: the stream
 * reads the log again only when the realtime bus says a task was logged for the session (which
 * reaches every instance when push is configured).
 */
@Injectable()
export class LiveTasksService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('live-tasks');
  /** How to end each open stream, so that shutting down does not wait for clients to leave. */
  private readonly open = new Set<() => void>();

  constructor(
    private readonly db: TenantDb,
    private readonly realtime: RealtimeEvents,
    drain: ShutdownDrain,
  ) {
    drain.onDrain(() => this.endAll());
  }

  beforeApplicationShutdown() {
    this.endAll();
  }

  private endAll(): void {
    for (const end of [...this.open]) end();
  }

  async stream(projectId: string, sessionId: string, res: Response): Promise<void> {
    await this.db.read(async (m) => {
      await requireProject(m, projectId);
      await requireSessionOf(m, sessionId, projectId);
    });
    const tenant = currentTenant();
    let lastSeq = 0;
    let ended = false;
    let chain = Promise.resolve();
    // Reads outside the request's scope: a stream outlives the request deadline.
    const readNew = () => runWithTenant(tenant, () => this.db.read((m) => m.find(Task, { where: { session_id: sessionId, seq: MoreThan(lastSeq) }, order: { seq: 'ASC' } })));
    const isClosed = () => runWithTenant(tenant, () => this.db.read((m) => m.findOneBy(Session, { id: sessionId }))).then((s) => !s || s.status !== 'active');
    const end = () => {
      if (ended) return;
      ended = true;
      this.open.delete(end);
      unsubscribe();
      clearInterval(keepalive);
      res.end();
    };
    const flush = (closing: boolean) => {
      chain = chain
        .then(async () => {
          if (ended) return;
          for (const task of await readNew()) {
            lastSeq = Math.max(lastSeq, Number(task.seq));
            res.write(`event: task\ndata: ${JSON.stringify(toTaskView(task))}\n\n`);
          }
          if (closing || (await isClosed())) {
            res.write(`event: session_closed\ndata: ${JSON.stringify({ session_id: sessionId })}\n\n`);
            end();
          }
        })
        .catch((error: Error) => {
          this.logger.warn({ msg: 'live task stream ended: the task log could not be read', session_id: sessionId, error: error.message });
          end();
        });
    };
    const unsubscribe = this.realtime.subscribe((event: RealtimeEvent) => {
      if (event.tenantId !== tenant.tenantId) return;
      if (event.event === 'task_logged' && (event.data.task as { session_id?: string })?.session_id === sessionId) flush(false);
      if (event.event === 'session_closed' && (event.data.session as { id?: string })?.id === sessionId) flush(true);
    });
    const keepalive = setInterval(() => res.write(': keepalive\n\n'), KEEPALIVE_MS);
    res.on('close', end);
    this.open.add(end);
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.flushHeaders();
    flush(false);
  }
}
