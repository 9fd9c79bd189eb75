import { Project } from './project.entity';

/** A project as REST and MCP clients see it. */
export interface ProjectView {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export function toProjectView(project: Project): ProjectView {
  return {
    id: project.id,
    name: project.name,
    created_at: project.created_at.toISOString(),
    updated_at: project.updated_at.toISOString(),
  };
}
