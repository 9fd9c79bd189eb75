import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ExtensionRegistry } from '../../common/extensions/extension-registry';
import { Session, SessionCloseReason } from './session.entity';

/** Work that must happen when a session ends, inside the same transaction as the close. */
export type SessionCloseHook = (manager: EntityManager, session: Session, reason: SessionCloseReason) => Promise<void>;

/**
 * Sees a session end from both sides of the close hooks, in the same transaction: called before
 * any hook (what the session still holds), it may answer a follow-up called after all of them
 * (what became of it). The automatic handoff is written this way.
 */
export type SessionCloseWitness = (manager: EntityManager, session: Session, reason: SessionCloseReason) => Promise<(() => Promise<void>) | undefined>;

/** Work done before a closing transaction opens (warming a cache the hooks read inside it). */
export type SessionClosePreparation = () => Promise<void>;

/**
 * Modules register what a session's end means to them (its file locks are
 * released, its in-progress sprint items are re-queued, ...). The hooks run in
 * the transaction that closes the session, so a close either has all of its
 * effects or none, whether it came from the owner, a Stop hook or the sweeper.
 */
@Injectable()
export class SessionCloseHooks extends ExtensionRegistry<SessionCloseHook> {
  private readonly witnesses = new ExtensionRegistry<SessionCloseWitness>('session close witness');
  private readonly preparations = new ExtensionRegistry<SessionClosePreparation>('session close preparation');

  constructor() {
    super('session close hook');
  }

  registerWitness(name: string, witness: SessionCloseWitness): void {
    this.witnesses.register(name, witness);
  }

  registerPreparation(name: string, preparation: SessionClosePreparation): void {
    this.preparations.register(name, preparation);
  }

  /** Before a transaction that may close sessions. */
  async prepareAll(): Promise<void> {
    for (const [, prepare] of this.preparations) await prepare();
  }

  async runAll(manager: EntityManager, session: Session, reason: SessionCloseReason): Promise<void> {
    const followUps: (() => Promise<void>)[] = [];
    for (const [, witness] of this.witnesses) {
      const followUp = await witness(manager, session, reason);
      if (followUp) followUps.push(followUp);
    }
    await this.runInOrder((hook) => hook(manager, session, reason));
    for (const followUp of followUps) await followUp();
  }
}
