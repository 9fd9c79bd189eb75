import { EntityManager } from 'typeorm';
import { bindParams, Dialect } from '../../../libs/tenancy';
import { isUuid } from './dto/sprint-field.rules';
import { SprintItem } from './sprint-item.entity';
import { SprintError } from './sprint.errors';

/**
 * The item `ref` (id, slug or nickname) of the project, or the same 404 a
 * missing one gets; an id of another project or tenant is simply not found.
 * A slug wins over another item's equal nickname.
 */
export async function findItem(m: EntityManager, projectId: string, ref: string): Promise<SprintItem | null> {
  if (isUuid(ref)) return m.findOneBy(SprintItem, { id: ref.toLowerCase(), project_id: projectId });
  return (await m.findOneBy(SprintItem, { project_id: projectId, slug: ref })) ?? m.findOneBy(SprintItem, { project_id: projectId, nickname: ref });
}

export async function requireItem(m: EntityManager, projectId: string, ref: string, field?: string): Promise<SprintItem> {
  const item = await findItem(m, projectId, ref);
  if (!item) throw SprintError.notFound(ref, field);
  return item;
}

/** Runs raw SQL written with $n placeholders; answers the rows whatever the statement and the driver. */
export async function queryRows<T = Record<string, unknown>>(m: EntityManager, dialect: Dialect, sql: string, params: unknown[]): Promise<T[]> {
  const [text, values] = bindParams(dialect, sql, params);
  const result: unknown = await m.query(text, values);
  // TypeORM's Postgres driver answers [rows, rowCount] for UPDATE and DELETE.
  if (dialect === 'postgres' && Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}

/** Appends a paragraph to free-text notes. */
export function appendNote(notes: string | null, line: string): string {
  return notes && notes.trim() ? `${notes.trimEnd()}\n\n${line}` : line;
}
