import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ExtensionRegistry } from '../../common/extensions/extension-registry';
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
export class SessionHandovers extends ExtensionRegistry<SessionHandover> {
  constructor() {
    super('session handover');
  }

  /** Runs every handover; answers what moved, per module name. */
  async runAll(manager: EntityManager, from: Session, to: Session, options: HandoverOptions): Promise<Record<string, number>> {
    return Object.fromEntries(await this.runInOrder((handover) => handover.move(manager, from, to, options)));
  }

  /** What `sessionId` holds, per module name. */
  async countAll(manager: EntityManager, sessionId: string): Promise<Record<string, number>> {
    return Object.fromEntries(await this.runInOrder((handover) => handover.count(manager, sessionId)));
  }
}
