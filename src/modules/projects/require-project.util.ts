import { EntityManager } from 'typeorm';
import { findById } from '../../database/find-by-id';
import { Project } from './project.entity';
import { ProjectError } from './projects.errors';

/**
 * The project `id` of the current tenant, read inside the caller's
 * transaction, or the same 404 a missing project gets. Every module that
 * takes a project id starts with this.
 */
export async function requireProject(manager: EntityManager, id: string): Promise<Project> {
  const project = await findById(manager, Project, id);
  if (!project) throw ProjectError.notFound(id);
  return project;
}
