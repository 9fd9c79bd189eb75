import { Inject, Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { findById } from '../../database/find-by-id';
import { Session } from '../sessions/session.entity';
import { SessionHandovers } from '../sessions/session-handovers';
import { SessionsService } from '../sessions/sessions.service';
import { CarriedWork } from './handoff.view';

export type { CarriedWork } from './handoff.view';

/**
 * A handoff that passes the baton: at generation the author's work (in-progress sprint items and
 * tasks, live file locks) moves to a carrier session Baton opens for the handoff, so the author
 * may end at once without it being re-queued; at acceptance it moves on to the accepting session
 * and the carrier closes. Both moves happen inside one transaction, so no other session can take
 * any of it in between. A handoff never accepted releases it at expiry (the sweeper closes the
 * carrier; its items go back to pending without counting a stall).
 */
@Injectable()
export class HandoffCarry {
  constructor(
    private readonly sessions: SessionsService,
    private readonly handovers: SessionHandovers,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Moves `author`'s work to a new carrier session held until `expiresAt`; answers the carrier's id and what moved. */
  async take(m: EntityManager, author: Session, handoffId: string, expiresAt: Date): Promise<{ carrierId: string; carried: CarriedWork }> {
    const carrier = await this.sessions.openCarrier(m, author, handoffId);
    const moved = await this.handovers.runAll(m, author, carrier, { locksUntil: expiresAt });
    return { carrierId: carrier.id, carried: carriedOf(moved) };
  }

  /** What the carrier holds now. */
  async heldBy(m: EntityManager, carrierId: string): Promise<CarriedWork> {
    return carriedOf(await this.handovers.countAll(m, carrierId));
  }

  /** Moves what the carrier still holds to `sessionId` (locks for a fresh TTL) and closes the carrier. */
  async deliver(m: EntityManager, carrierId: string, sessionId: string): Promise<CarriedWork> {
    const carrier = await findById(m, Session, carrierId);
    const receiver = await findById(m, Session, sessionId);
    if (!carrier || carrier.status !== 'active' || !receiver) return carriedOf({});
    const locksUntil = new Date(this.clock.now().getTime() + this.config.fileLockTtlS * 1000);
    const moved = await this.handovers.runAll(m, carrier, receiver, { locksUntil });
    await this.sessions.closeWithin(m, carrier.id, 'handed_off');
    return carriedOf(moved);
  }
}

function carriedOf(moved: Record<string, number>): CarriedWork {
  return { sprint_items: moved.sprint_items ?? 0, tasks: moved.tasks ?? 0, file_locks: moved.file_locks ?? 0 };
}
