import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ExtensionRegistry } from './extension-registry';

export interface HandoffHookInput {
  projectId: string;
  /** Repository-relative paths changed in the last three commits (empty without a repository). */
  changedFiles: string[];
}

export type HandoffHook = (manager: EntityManager, input: HandoffHookInput) => Promise<void>;

/**
 * Work other modules do while a handoff is generated, inside its transaction
 * (the sprint module fills `touches_files` of its items from the changed files).
 */
@Injectable()
export class HandoffHooks extends ExtensionRegistry<HandoffHook> {
  constructor() {
    super('handoff hook');
  }

  async runAll(manager: EntityManager, input: HandoffHookInput): Promise<void> {
    await this.runInOrder((hook) => hook(manager, input));
  }
}
