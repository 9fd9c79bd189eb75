import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ADDITIVE, DESTRUCTIVE, IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { output } from '../../mcp/tool-schema';
import { CreateProjectDto } from './dto/create-project.dto';
import { ProjectIdDto } from './dto/project-id.dto';
import { RenameProjectDto } from './dto/rename-project.dto';
import { ProjectView } from './project.view';
import { ProjectsService } from './projects.service';

@Injectable()
export class ProjectsTools {
  constructor(private readonly projects: ProjectsService) {}

  @McpTool({
    name: 'list_projects',
    annotations: READ_ONLY,
    outputSchema: output({ items: 'array' }),
    description: "List the workspace's projects, by name.",
  })
  list(): Promise<ProjectView[]> {
    return this.projects.list();
  }

  @McpTool({
    name: 'create_project',
    annotations: ADDITIVE,
    description: 'Create a project. Names are unique without regard to case.',
    input: CreateProjectDto,
  })
  create(input: CreateProjectDto): Promise<ProjectView> {
    return this.projects.create(input);
  }

  @McpTool({ name: 'get_project', annotations: READ_ONLY, description: 'Get one project by id.', input: ProjectIdDto })
  get(input: ProjectIdDto): Promise<ProjectView> {
    return this.projects.get(input.project_id);
  }

  @McpTool({
    name: 'rename_project',
    annotations: IDEMPOTENT_UPDATE,
    description: 'Rename a project; connected dashboards are told.',
    params: ProjectIdDto,
    body: RenameProjectDto,
  })
  rename(params: ProjectIdDto, body: RenameProjectDto): Promise<ProjectView> {
    return this.projects.rename(params.project_id, body);
  }

  @McpTool({ name: 'delete_project', annotations: DESTRUCTIVE, description: 'Delete a project and all of its data.', input: ProjectIdDto })
  async remove(input: ProjectIdDto): Promise<{ deleted: string }> {
    await this.projects.remove(input.project_id);
    return { deleted: input.project_id };
  }
}
