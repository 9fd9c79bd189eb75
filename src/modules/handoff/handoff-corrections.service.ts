import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, MoreThan } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { DomainEvents } from '../../common/events/domain-events';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { RecordCorrectionDto } from './dto/record-correction.dto';
import { HandoffCorrection } from './handoff-correction.entity';
import { HandoffError } from './handoff.errors';

export interface CorrectionView {
  id: string;
  project_id: string;
  session_id: string | null;
  summary: string;
  content: string;
  created_at: string;
}

export function toCorrectionView(c: HandoffCorrection): CorrectionView {
  return { id: c.id, project_id: c.project_id, session_id: c.session_id, summary: c.summary, content: c.content, created_at: c.created_at.toISOString() };
}

/** Corrective handoffs: what a blocked executor session should do instead. */
@Injectable()
export class HandoffCorrectionsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly events: DomainEvents,
  ) {}

  async record(projectId: string, input: RecordCorrectionDto): Promise<CorrectionView> {
    const correction = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (input.session_id) await requireSessionOf(m, projectId, input.session_id);
      const row: HandoffCorrection = {
        id: randomUUID(),
        project_id: projectId,
        session_id: input.session_id ?? null,
        summary: input.summary,
        content: input.content,
        created_at: this.clock.now(),
      };
      await m.insert(HandoffCorrection, row);
      return row;
    });
    // The AI log records every correction.
    await this.events.emit('handoff.corrected', {
      project_id: projectId,
      session_id: correction.session_id,
      correction_id: correction.id,
      summary: correction.summary,
    });
    return toCorrectionView(correction);
  }

  /** The latest correction of the project (of one session when given), or null. */
  async latest(projectId: string, sessionId?: string): Promise<{ correction: CorrectionView | null }> {
    const found = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return m.findOne(HandoffCorrection, {
        where: { project_id: projectId, ...(sessionId ? { session_id: sessionId } : {}) },
        order: { created_at: 'DESC', id: 'DESC' },
      });
    });
    return { correction: found ? toCorrectionView(found) : null };
  }

  /** Corrections newest first, after `since` when given, inside the caller's transaction. */
  recent(m: EntityManager, projectId: string, limit: number, since?: Date): Promise<HandoffCorrection[]> {
    return m.find(HandoffCorrection, {
      where: { project_id: projectId, ...(since ? { created_at: MoreThan(since) } : {}) },
      order: { created_at: 'DESC', id: 'DESC' },
      take: limit,
    });
  }
}

/** A session of this project; another project's (or another workspace's) session is not found here. */
export async function requireSessionOf(m: EntityManager, projectId: string, sessionId: string): Promise<Session> {
  const session = await m.findOneBy(Session, { id: sessionId });
  if (!session || session.project_id !== projectId) throw HandoffError.sessionNotInProject(sessionId, projectId);
  return session;
}
