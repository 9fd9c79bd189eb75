import { Injectable } from '@nestjs/common';
import { escapeLike, isUniqueViolation } from '../../common/errors/db-errors';
import { SprintItem } from './sprint-item.entity';
import { queryRows } from './sprint-store.util';
import { baseNickname, baseSlug, firstFree } from './sprint-text.util';
import { SprintTx } from './sprint-tx';

/** Slugs and nicknames already used in a project: one namespace, since either addresses an item. */
export class IdentifierPool {
  /**
   * Per base, the suffix its last search ended on: every lower one was taken then, and stays
   * taken until something is deleted. The next search for that base starts there, so a batch
   * of many items whose titles begin alike takes linear time, not quadratic.
   */
  private readonly searched = new Map<string, number>();

  constructor(private readonly taken: Set<string>) {}

  has(value: string): boolean {
    return this.taken.has(value);
  }

  add(...values: string[]): void {
    for (const v of values) this.taken.add(v);
  }

  delete(value: string): void {
    this.taken.delete(value);
    this.searched.clear();
  }

  /** The first of `base`, `base-2`, `base-3`, ... not taken (firstFree). */
  firstFree(base: string): string {
    const found = firstFree(base, (c) => this.taken.has(c), this.searched.get(base));
    if (found !== base) this.searched.set(base, Number(found.slice(base.length + 1)));
    return found;
  }
}

/**
 * Gives each item a slug (from its title, unique per project) and a nickname
 * (1-2 words, unique per project), with `-2`, `-3`, ... on collision. The
 * unique indexes settle races between concurrent writers (see insert).
 */
@Injectable()
export class SprintIdentifiers {
  /** Every identifier of the project, for allocating many at once (sprint-batch). */
  async pool(tx: SprintTx): Promise<IdentifierPool> {
    const rows = await queryRows<{ slug: string; nickname: string }>(tx.m, tx.dialect, 'SELECT slug, nickname FROM sprint_items WHERE project_id = $1', [tx.projectId]);
    return new IdentifierPool(new Set(rows.flatMap((r) => [r.slug, r.nickname])));
  }

  private async allocate(tx: SprintTx, title: string, id: string, pool?: IdentifierPool): Promise<{ slug: string; nickname: string }> {
    const slugBase = baseSlug(title, id);
    const nickBase = baseNickname(title, id);
    const taken = pool ?? (await this.near(tx, [slugBase, nickBase]));
    const slug = taken.firstFree(slugBase);
    const nickname = taken.firstFree(nickBase);
    pool?.add(slug, nickname);
    return { slug, nickname };
  }

  /**
   * Inserts the item `make` builds with a free slug and nickname. When a
   * concurrent writer committed the same pair first, the unique index refuses
   * the insert: it is undone to a savepoint (the transaction stays usable), the
   * refused pair is marked taken and the next free suffix is tried. Each refusal
   * marks at least one identifier that another item really holds, so the loop
   * ends however many writers race for one title.
   */
  async insert(tx: SprintTx, title: string, id: string, make: (ids: { slug: string; nickname: string }) => SprintItem, pool?: IdentifierPool): Promise<SprintItem> {
    const taken = pool ?? (await this.near(tx, [baseSlug(title, id), baseNickname(title, id)]));
    for (;;) {
      const ids = await this.allocate(tx, title, id, taken);
      const item = make(ids);
      await tx.m.query('SAVEPOINT sprint_item_identifiers');
      try {
        await tx.m.insert(SprintItem, item);
      } catch (error) {
        // Rolled back and released: a savepoint left in place would nest under the next one, and a long run of retries would hold ever more of them.
        await tx.m.query('ROLLBACK TO SAVEPOINT sprint_item_identifiers');
        await tx.m.query('RELEASE SAVEPOINT sprint_item_identifiers');
        if (!isUniqueViolation(error)) throw error;
        // allocate() marked both taken; free the one the index did not refuse, so no suffix is skipped. A two-word
        // title gives a slug equal to its nickname: that value is the refused one and stays taken, or the loop would
        // try it for ever.
        const refused = refusedIdentifier(error);
        if (refused === 'slug' && ids.nickname !== ids.slug) taken.delete(ids.nickname);
        if (refused === 'nickname' && ids.slug !== ids.nickname) taken.delete(ids.slug);
        continue;
      }
      await tx.m.query('RELEASE SAVEPOINT sprint_item_identifiers');
      return item;
    }
  }

  /** Only the identifiers that could collide with these bases. */
  private async near(tx: SprintTx, bases: string[]): Promise<IdentifierPool> {
    const clauses: string[] = [];
    const params: unknown[] = [tx.projectId];
    for (const base of bases) {
      params.push(base, `${escapeLike(base)}-%`);
      const eq = `$${params.length - 1}`;
      const like = `$${params.length}`;
      clauses.push(`slug = ${eq} OR slug LIKE ${like} ESCAPE '\\' OR nickname = ${eq} OR nickname LIKE ${like} ESCAPE '\\'`);
    }
    const rows = await queryRows<{ slug: string; nickname: string }>(
      tx.m,
      tx.dialect,
      `SELECT slug, nickname FROM sprint_items WHERE project_id = $1 AND (${clauses.join(' OR ')})`,
      params,
    );
    return new IdentifierPool(new Set(rows.flatMap((r) => [r.slug, r.nickname])));
  }
}

/** Which identifier a unique violation is about, from the index name (Postgres) or the column in the message (SQLite). */
function refusedIdentifier(error: unknown): 'slug' | 'nickname' | undefined {
  const driverError = ((error as { driverError?: unknown }).driverError ?? error) as { constraint?: string; message?: string };
  const text = `${driverError.constraint ?? ''} ${driverError.message ?? ''}`;
  if (/nickname/.test(text)) return 'nickname';
  if (/slug/.test(text)) return 'slug';
  return undefined;
}
