import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { DEFAULT_AGENT_INSTRUCTIONS } from './agent-instructions.constants';
import { OrganizationStatus } from './project-extras.constants';
import { ProjectExtrasError } from './project-extras.errors';
import { Project } from './project.entity';
import { lockProjectIfExists } from './project-lock.util';
import { ProjectView, toProjectView } from './project.view';
import { ProjectError } from './projects.errors';
import { requireProject } from './require-project.util';

export interface AgentInstructionsView {
  project_id: string;
  agent_instructions: string;
  /** True when the project has none of its own and Baton's defaults apply. */
  is_default: boolean;
}

/** A project's organization status, icon, parent (one level) and agent instructions. */
@Injectable()
export class ProjectExtrasService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  async setOrganizationStatus(projectId: string, status: OrganizationStatus): Promise<ProjectView> {
    return this.change(projectId, { organization_status: status });
  }

  /** One emoji (validated by the input class), or null to clear. */
  async setIcon(projectId: string, icon: string | null): Promise<ProjectView> {
    return this.change(projectId, { icon });
  }

  /**
   * Makes the project a subproject of `parentId`, or top-level again with null.
   * One level only: the parent must not have a parent, and a project that has
   * subprojects cannot get one. Both projects are locked (in id order, so two
   * opposite requests cannot deadlock) before the rules are checked.
   */
  async setParent(projectId: string, parentId: string | null): Promise<ProjectView> {
    if (parentId === projectId) throw ProjectExtrasError.parentIsSelf();
    return this.db.transaction(async (m) => {
      const locked = new Map<string, Project | null>();
      for (const id of parentId ? [projectId, parentId].sort() : [projectId]) locked.set(id, await lockProjectIfExists(m, id));
      const project = locked.get(projectId);
      if (!project) throw ProjectError.notFound(projectId);
      if (parentId) {
        const parent = locked.get(parentId);
        if (!parent) throw ProjectExtrasError.parentNotFound(parentId);
        if (parent.parent_id) throw ProjectExtrasError.parentIsSubproject(parentId);
        if (await m.exists(Project, { where: { parent_id: projectId } })) throw ProjectExtrasError.hasSubprojects(projectId);
      }
      return this.apply(m, project, { parent_id: parentId });
    });
  }

  async getAgentInstructions(projectId: string): Promise<AgentInstructionsView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return this.readInstructions(m, projectId);
    });
  }

  /** New instructions, or null to go back to the defaults. */
  async setAgentInstructions(projectId: string, text: string | null): Promise<AgentInstructionsView> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      await m.update(Project, { id: projectId }, { agent_instructions: text, updated_at: this.clock.now() });
      return this.readInstructions(m, projectId);
    });
  }

  async defaultAgentInstructions(projectId: string): Promise<{ project_id: string; agent_instructions: string }> {
    await this.db.transaction((m) => requireProject(m, projectId));
    return { project_id: projectId, agent_instructions: DEFAULT_AGENT_INSTRUCTIONS };
  }

  private async readInstructions(m: EntityManager, projectId: string): Promise<AgentInstructionsView> {
    const row = await m.createQueryBuilder(Project, 'p').select('p.id').addSelect('p.agent_instructions').where('p.id = :projectId', { projectId }).getOneOrFail();
    const own = row.agent_instructions;
    return { project_id: projectId, agent_instructions: own ?? DEFAULT_AGENT_INSTRUCTIONS, is_default: own === null };
  }

  private change(projectId: string, fields: Partial<Project>): Promise<ProjectView> {
    return this.db.transaction(async (m) => this.apply(m, await requireProject(m, projectId), fields));
  }

  private async apply(m: EntityManager, project: Project, fields: Partial<Project>): Promise<ProjectView> {
    const updated = { ...project, ...fields, updated_at: this.clock.now() };
    await m.update(Project, { id: project.id }, { ...fields, updated_at: updated.updated_at });
    return toProjectView(updated);
  }
}
