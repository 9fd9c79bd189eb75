import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

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
export class HandoffHooks {
  private readonly hooks = new Map<string, HandoffHook>();

  register(name: string, hook: HandoffHook): void {
    if (this.hooks.has(name)) throw new Error(`handoff hook ${name} registered twice`);
    this.hooks.set(name, hook);
  }

  async runAll(manager: EntityManager, input: HandoffHookInput): Promise<void> {
    for (const hook of this.hooks.values()) await hook(manager, input);
  }
}
