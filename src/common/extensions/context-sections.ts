import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ExtensionRegistry } from './extension-registry';

/** One section of a project's context block (spec §1 "Dynamic" layer). */
export interface ContextSection {
  /** Stable key, e.g. "sprint_items". */
  key: string;
  title: string;
  /** Lower comes first in the block. */
  order: number;
  /** Most important first: truncation drops lines from the end. */
  lines: string[];
  /** Kept whole in a brief block too (the goal): only the byte cap shortens it. */
  whole?: boolean;
}

export type ContextSectionProvider = (manager: EntityManager, projectId: string) => Promise<ContextSection | null>;

/**
 * Modules contribute sections to the context block without the context module
 * knowing them (the sprint module adds active sprint items, for example).
 * Providers run inside the caller's transaction.
 */
@Injectable()
export class ContextSections extends ExtensionRegistry<ContextSectionProvider> {
  constructor() {
    super('context section');
  }

  async collect(manager: EntityManager, projectId: string): Promise<ContextSection[]> {
    const found = await this.runInOrder((provider) => provider(manager, projectId));
    const sections = [...found.values()].filter((section): section is ContextSection => !!section);
    return sections.sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
  }
}
