import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { QueuedSession } from './queued-session.entity';

export interface QueuedSessionView {
  queued_goal: string | null;
  queued_at: string | null;
}

/** The goal queued for a project's next session: one slot, carried by the next generated handoff, then cleared. */
@Injectable()
export class QueuedSessionsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async queue(projectId: string, goal: string): Promise<QueuedSessionView & { replaced: boolean }> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const replaced = (await m.findOneBy(QueuedSession, { project_id: projectId })) !== null;
      const row: QueuedSession = { project_id: projectId, goal, queued_at: this.clock.now() };
      await m.upsert(QueuedSession, row, ['project_id']);
      return { ...toView(row), replaced };
    });
  }

  async get(projectId: string): Promise<QueuedSessionView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return toView(await m.findOneBy(QueuedSession, { project_id: projectId }));
    });
  }

  /**
   * Takes the queued goal for a handoff being generated in the caller's
   * transaction. The delete is conditional on the goal read, so of two
   * handoffs generated at once only one carries it, and a goal queued in
   * between is kept for the next one; if the handoff fails, the transaction
   * rolls back and the goal stays queued.
   */
  async take(m: EntityManager, projectId: string): Promise<string | null> {
    const row = await m.findOneBy(QueuedSession, { project_id: projectId });
    if (!row) return null;
    const result = await m.delete(QueuedSession, { project_id: projectId, goal: row.goal });
    return result.affected ? row.goal : null;
  }
}

function toView(row: QueuedSession | null): QueuedSessionView {
  return { queued_goal: row?.goal ?? null, queued_at: row ? row.queued_at.toISOString() : null };
}
