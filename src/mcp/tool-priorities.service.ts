import { Injectable } from '@nestjs/common';
import { TenantDb } from '../../libs/tenancy';
import { ProfileResolver } from '../modules/profile-layers/profile-resolver.service';
import { requireProject } from '../modules/projects/require-project.util';
import { ToolPriorityMap } from './tool-priority.util';

/** A project's tool_priority_map as its profile resolves it (hosted_default, workspace, project): the order of a connection's listing. */
@Injectable()
export class ToolPriorities {
  constructor(
    private readonly db: TenantDb,
    private readonly resolver: ProfileResolver,
  ) {}

  /** The map, or the project's 404 (another tenant's project is not found either). */
  of(projectId: string): Promise<ToolPriorityMap> {
    return this.db.read(async (m) => {
      await requireProject(m, projectId);
      const value = (await this.resolver.projectFields(m, projectId)).get('tool_priority_map')?.value;
      return value && typeof value === 'object' && !Array.isArray(value) ? (value as ToolPriorityMap) : {};
    });
  }
}
