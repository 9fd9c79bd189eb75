import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In, Repository } from 'typeorm';
import { currentTenant, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { escapeLike, isUniqueViolation } from '../../common/errors/db-errors';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { CreateProjectDto } from './dto/create-project.dto';
import { RenameProjectDto } from './dto/rename-project.dto';
import { Project } from './project.entity';
import { projectNameKey } from './project-name.util';
import { ProjectView, toProjectView } from './project.view';
import { ProjectError } from './projects.errors';
import { requireProject } from './require-project.util';

export interface DeleteProjectsResult {
  deleted: string[];
  not_found: string[];
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly events: RealtimeEvents,
  ) {}

  /** Every project of the workspace, by name. */
  async list(): Promise<ProjectView[]> {
    const projects = await this.db.read((m) => m.find(Project, { order: { name_key: 'ASC' } }));
    return projects.map(toProjectView);
  }

  async create(input: CreateProjectDto): Promise<ProjectView> {
    const now = this.clock.now();
    const project: Project = {
      id: randomUUID(),
      name: input.name,
      name_key: projectNameKey(input.name),
      created_at: now,
      updated_at: now,
      agent_instructions: null,
      icon: null,
      organization_status: 'active',
      parent_id: null,
    };
    const view = await this.db.transaction(async (m) => {
      await this.assertNameFree(m.getRepository(Project), project.name, project.name_key);
      try {
        await m.insert(Project, project);
      } catch (error) {
        if (isUniqueViolation(error)) throw ProjectError.nameTaken(project.name, 'unknown');
        throw error;
      }
      return toProjectView(project);
    });
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'project_created', data: { project: view } });
    return view;
  }

  async get(id: string): Promise<ProjectView> {
    return toProjectView(await this.db.read((m) => requireProject(m, id)));
  }

  /**
   * The project whose name matches `name` without regard to case: an exact
   * match wins, otherwise the oldest project whose name contains it.
   */
  async findByName(name: string): Promise<ProjectView> {
    const key = projectNameKey(name);
    const project = await this.db.transaction(async (m) => {
      const exact = await m.findOneBy(Project, { name_key: key });
      if (exact) return exact;
      return m
        .createQueryBuilder(Project, 'p')
        .where("p.name_key LIKE :pattern ESCAPE '\\'", { pattern: `%${escapeLike(key)}%` })
        .orderBy('p.created_at', 'ASC')
        .addOrderBy('p.id', 'ASC')
        .getOne();
    });
    if (!project) throw ProjectError.notFound(name);
    return toProjectView(project);
  }

  async rename(id: string, input: RenameProjectDto): Promise<ProjectView> {
    const { project, oldName } = await this.db.transaction(async (m) => {
      const repo = m.getRepository(Project);
      const found = await repo.findOneBy({ id });
      if (!found) throw ProjectError.notFound(id);
      const key = projectNameKey(input.name);
      if (key !== found.name_key) await this.assertNameFree(repo, input.name, key);
      const previous = found.name;
      found.name = input.name;
      found.name_key = key;
      found.updated_at = this.clock.now();
      try {
        await repo.update({ id }, { name: found.name, name_key: key, updated_at: found.updated_at });
      } catch (error) {
        if (isUniqueViolation(error)) throw ProjectError.nameTaken(input.name, 'unknown');
        throw error;
      }
      return { project: found, oldName: previous };
    });
    this.events.publish({
      tenantId: currentTenant().tenantId,
      event: 'project_renamed',
      data: { project_id: id, old_name: oldName, name: project.name },
    });
    return toProjectView(project);
  }

  /** Deletes the project and, through cascading keys, all of its data. */
  async remove(id: string): Promise<void> {
    const result = await this.db.transaction((m) => m.delete(Project, { id }));
    if (!result.affected) throw ProjectError.notFound(id);
    this.events.publish({ tenantId: currentTenant().tenantId, event: 'project_deleted', data: { project_id: id } });
  }

  async removeMany(ids: string[]): Promise<DeleteProjectsResult> {
    const unique = [...new Set(ids)];
    return this.db.transaction(async (m) => {
      const found = await m.find(Project, { select: { id: true }, where: { id: In(unique) } });
      const deleted = found.map((p) => p.id);
      if (deleted.length > 0) await m.delete(Project, { id: In(deleted) });
      const gone = new Set(deleted);
      return { deleted, not_found: unique.filter((id) => !gone.has(id)) };
    });
  }

  private async assertNameFree(repo: Pick<Repository<Project>, 'findOneBy'>, name: string, key: string) {
    const existing = await repo.findOneBy({ name_key: key });
    if (existing) throw ProjectError.nameTaken(name, existing.id);
  }
}
