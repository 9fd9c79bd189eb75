import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Session } from './session.entity';

/** How a handover treats what it moves: file locks are held until `locksUntil`. */
export interface HandoverOptions {
  locksUntil: Date;
}

/** How one module moves what a session holds, inside the caller's transaction, and counts it. */
export interface SessionHandover {
  /** Moves what `from` holds to `to`; answers how many things moved. */
  move(manager: EntityManager, from: Session, to: Session, options: HandoverOptions): Promise<number>;
  /** How many things `sessionId` holds now. */
  count(manager: EntityManager, sessionId: string): Promise<number>;
}

/**
 * What a session holds (its file locks, its in-progress sprint items and tasks) can be handed to
 * another session of the project at once, in one transaction: no moment exists in which a third
 * session could take any of it. Modules register how to move what they keep, as they register
 * what a session's end means to them (SessionCloseHooks).
 */
@Injectable()
export class SessionHandovers {
  private readonly handovers = new Map<string, SessionHandover>();

  register(name: string, handover: SessionHandover): void {
    if (this.handovers.has(name)) throw new Error(`session handover ${name} registered twice`);
    this.handovers.set(name, handover);
  }

  /** Runs every handover; answers what moved, per module name. */
  async runAll(manager: EntityManager, from: Session, to: Session, options: HandoverOptions): Promise<Record<string, number>> {
    const moved: Record<string, number> = {};
    for (const [name, handover] of this.handovers) moved[name] = await handover.move(manager, from, to, options);
    return moved;
  }

  /** What `sessionId` holds, per module name. */
  async countAll(manager: EntityManager, sessionId: string): Promise<Record<string, number>> {
    const held: Record<string, number> = {};
    for (const [name, handover] of this.handovers) held[name] = await handover.count(manager, sessionId);
    return held;
  }
}
