import { OrganizationStatus } from './project-extras.constants';
import { Project } from './project.entity';

/** A project as REST and MCP clients see it. */
export interface ProjectView {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  icon: string | null;
  organization_status: OrganizationStatus;
  parent_id: string | null;
}

export function toProjectView(project: Project): ProjectView {
  return {
    id: project.id,
    name: project.name,
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
    icon: project.icon,
    organization_status: project.organization_status,
    parent_id: project.parent_id,
  };
}
