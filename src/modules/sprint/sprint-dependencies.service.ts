import { Injectable } from '@nestjs/common';
import { SprintItemResource } from './sprint-item-resource.entity';
import { SprintItem } from './sprint-item.entity';
import { ParsedResource } from './sprint-resources.util';
import { queryRows, requireItem } from './sprint-store.util';
import { SprintTx } from './sprint-tx';
import { SprintError } from './sprint.errors';

/** Links between items: depends_on (checked for self-reference and cycles) and the declared resources. */
@Injectable()
export class SprintDependencies {
  /**
   * The item `ref` names as the dependency of `itemId`: in the same project
   * (404 otherwise), not the item itself, and not closing a cycle.
   */
  async resolve(tx: SprintTx, itemId: string, ref: string): Promise<SprintItem> {
    const dependency = await requireItem(tx.m, tx.projectId, ref, 'depends_on');
    if (dependency.id === itemId) throw SprintError.selfReference('depends_on');
    const chain: SprintItem[] = [dependency];
    const seen = new Set<string>([dependency.id]);
    for (let current = dependency; current.depends_on;) {
      if (current.depends_on === itemId) {
        const self = await tx.m.findOneBy(SprintItem, { id: itemId });
        const label = self?.slug ?? itemId;
        throw SprintError.dependencyCycle([label, ...chain.map((i) => i.slug), label]);
      }
      if (seen.has(current.depends_on)) break;
      const next = await tx.m.findOneBy(SprintItem, { id: current.depends_on });
      if (!next) break;
      seen.add(next.id);
      chain.push(next);
      current = next;
    }
    return dependency;
  }

  /** Replaces the side rows of an item's declared resources (`fresh`: a new item has none to remove). */
  async writeResources(tx: SprintTx, itemId: string, resources: ParsedResource[], fresh = false): Promise<void> {
    if (!fresh) {
      // Two writers replacing one item's rows at once would both delete, then both insert the same keys (a unique
      // violation): the item's row lock makes the second wait, and its delete then sees the first one's rows.
      // SQLite runs one writer at a time and has no row locks.
      if (tx.dialect === 'postgres') await queryRows(tx.m, tx.dialect, 'SELECT id FROM sprint_items WHERE id = $1 FOR UPDATE', [itemId]);
      await tx.m.delete(SprintItemResource, { item_id: itemId });
    }
    if (resources.length === 0) return;
    await tx.m.insert(
      SprintItemResource,
      resources.map((r) => ({ item_id: itemId, resource: r.resource, project_id: tx.projectId, file_path: r.filePath })),
    );
  }
}
