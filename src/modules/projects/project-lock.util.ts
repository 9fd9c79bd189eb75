import { EntityManager } from 'typeorm';
import { Project } from './project.entity';
import { ProjectError } from './projects.errors';

/**
 * The project `id`, locked for the rest of the caller's transaction (Postgres
 * `FOR UPDATE`), or the 404 of a missing project. Writes that read a count or
 * a version and then write (goal versions, the pinned-decision limit, the
 * one-level parent rule) take it so that concurrent writers queue instead of
 * both acting on the same stale read. SQLite runs one transaction at a time.
 */
export async function lockProject(m: EntityManager, id: string): Promise<Project> {
  const project = await lockProjectIfExists(m, id);
  if (!project) throw ProjectError.notFound(id);
  return project;
}

/** Like lockProject, but null when the project does not exist (or belongs to another tenant). */
export async function lockProjectIfExists(m: EntityManager, id: string): Promise<Project | null> {
  if (m.connection.options.type !== 'postgres') return m.findOneBy(Project, { id });
  return m.findOne(Project, { where: { id }, lock: { mode: 'pessimistic_write' } });
}
