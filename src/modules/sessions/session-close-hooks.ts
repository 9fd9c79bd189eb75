import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Session, SessionCloseReason } from './session.entity';

/** Work that must happen when a session ends, inside the same transaction as the close. */
export type SessionCloseHook = (manager: EntityManager, session: Session, reason: SessionCloseReason) => Promise<void>;

/**
 * Modules register what a session's end means to them (its file locks are
 * released, its in-progress sprint items are re-queued, ...). The hooks run in
 * the transaction that closes the session, so a close either has all of its
 * effects or none, whether it came from the owner, a Stop hook or the sweeper.
 */
@Injectable()
export class SessionCloseHooks {
  private readonly hooks = new Map<string, SessionCloseHook>();

  register(name: string, hook: SessionCloseHook): void {
    if (this.hooks.has(name)) throw new Error(`session close hook ${name} registered twice`);
    this.hooks.set(name, hook);
  }

  async runAll(manager: EntityManager, session: Session, reason: SessionCloseReason): Promise<void> {
    for (const hook of this.hooks.values()) await hook(manager, session, reason);
  }
}
