import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

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
export class ContextSections {
  private readonly providers = new Map<string, ContextSectionProvider>();

  register(name: string, provider: ContextSectionProvider): void {
    if (this.providers.has(name)) throw new Error(`context section ${name} registered twice`);
    this.providers.set(name, provider);
  }

  async collect(manager: EntityManager, projectId: string): Promise<ContextSection[]> {
    const sections: ContextSection[] = [];
    for (const provider of this.providers.values()) {
      const section = await provider(manager, projectId);
      if (section) sections.push(section);
    }
    return sections.sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
  }
}
