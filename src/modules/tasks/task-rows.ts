import { EntityManager, In } from 'typeorm';
import { bindParams, Dialect, sqlTimestamp } from '../../../libs/tenancy';
import { Task } from './task.entity';
import { RECENT_TASKS } from './tasks.constants';

/**
 * Inserts a task. On Postgres `seq` comes from an identity column; SQLite
 * (one writer at a time) takes the next number in the same statement.
 */
export async function insertTask(m: EntityManager, dialect: Dialect, task: Omit<Task, 'seq'>): Promise<void> {
  const seq = dialect === 'postgres' ? '' : ', seq';
  const next = dialect === 'postgres' ? '' : ', (SELECT COALESCE(MAX(seq), 0) + 1 FROM tasks)';
  const [sql, params] = bindParams(
    dialect,
    `INSERT INTO tasks (id, project_id, session_id, description, status, source, claimed_by, claimed_at, created_at, updated_at${seq})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10${next})`,
    [
      task.id,
      task.project_id,
      task.session_id,
      task.description,
      task.status,
      task.source,
      task.claimed_by,
      task.claimed_at ? sqlTimestamp(dialect, task.claimed_at) : null,
      sqlTimestamp(dialect, task.created_at),
      sqlTimestamp(dialect, task.updated_at),
    ],
  );
  await m.query(sql, params);
}

/** Loads tasks by id, in the order of `ids` (the order a raw query chose). */
export async function tasksInOrder(m: EntityManager, ids: string[]): Promise<Task[]> {
  if (ids.length === 0) return [];
  const found = await m.findBy(Task, { id: In(ids) });
  const byId = new Map(found.map((t) => [t.id, t]));
  return ids.map((id) => byId.get(id)).filter((t): t is Task => Boolean(t));
}

/** The project's latest tasks, newest first: one indexed, limited read however long the log is. */
export function recentTasks(m: EntityManager, projectId: string, limit = RECENT_TASKS): Promise<Task[]> {
  return m.find(Task, { where: { project_id: projectId }, order: { seq: 'DESC' }, take: limit });
}

/**
 * The rows of an `UPDATE ... RETURNING` run through `manager.query`: TypeORM
 * answers `[rows, affected]` for UPDATE and DELETE on Postgres, the rows alone
 * on SQLite.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') return result[0] as T[];
  return result as T[];
}
