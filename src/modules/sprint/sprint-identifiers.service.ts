import { Injectable } from '@nestjs/common';
import { escapeLike } from '../../common/errors/db-errors';
import { queryRows } from './sprint-store.util';
import { baseNickname, baseSlug, firstFree } from './sprint-text.util';
import { SprintTx } from './sprint-tx';

/** Slugs and nicknames already used in a project: one namespace, since either addresses an item. */
export class IdentifierPool {
  constructor(private readonly taken: Set<string>) {}

  has(value: string): boolean {
    return this.taken.has(value);
  }

  add(...values: string[]): void {
    for (const v of values) this.taken.add(v);
  }
}

/**
 * Gives each item a slug (from its title, unique per project) and a nickname
 * (1-2 words, unique per project), with `-2`, `-3`, ... on collision. The
 * unique indexes settle the rare race of two instances picking one name.
 */
@Injectable()
export class SprintIdentifiers {
  /** Every identifier of the project, for allocating many at once (sprint-batch). */
  async pool(tx: SprintTx): Promise<IdentifierPool> {
    const rows = await queryRows<{ slug: string; nickname: string }>(tx.m, tx.dialect, 'SELECT slug, nickname FROM sprint_items WHERE project_id = $1', [tx.projectId]);
    return new IdentifierPool(new Set(rows.flatMap((r) => [r.slug, r.nickname])));
  }

  async allocate(tx: SprintTx, title: string, id: string, pool?: IdentifierPool): Promise<{ slug: string; nickname: string }> {
    const slugBase = baseSlug(title, id);
    const nickBase = baseNickname(title, id);
    const taken = pool ?? (await this.near(tx, [slugBase, nickBase]));
    const slug = firstFree(slugBase, (c) => taken.has(c));
    const nickname = firstFree(nickBase, (c) => taken.has(c));
    pool?.add(slug, nickname);
    return { slug, nickname };
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
