import { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { escapeLike } from '../../common/errors/db-errors';

/**
 * Narrows a notes query (project or workspace notes) to a tag and/or a
 * substring. Tags are stored as a JSON array of lowercase words that cannot
 * hold a quote, so `"tag"` inside the text is an exact tag match. The
 * substring is matched in title and body without regard to case.
 */
export function filterNotes<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, alias: string, filter: { tag?: string; text?: string }): SelectQueryBuilder<T> {
  if (filter.tag) qb.andWhere(`${alias}.tags LIKE :tag ESCAPE '\\'`, { tag: `%${escapeLike(JSON.stringify(filter.tag))}%` });
  if (filter.text) {
    qb.andWhere(`(LOWER(${alias}.title) LIKE :text ESCAPE '\\' OR LOWER(${alias}.body) LIKE :text ESCAPE '\\')`, {
      text: `%${escapeLike(filter.text.toLowerCase())}%`,
    });
  }
  return qb;
}
