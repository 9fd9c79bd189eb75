import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { CreateProjectDto } from './dto/create-project.dto';
import { ProjectIdDto } from './dto/project-id.dto';
import { RenameProjectToolDto } from './dto/rename-project-tool.dto';
import { ProjectView } from './project.view';
import { ProjectsService } from './projects.service';

@Injectable()
export class ProjectsTools {
  constructor(private readonly projects: ProjectsService) {}

  @McpTool({ name: 'list_projects', description: 'List every project of the workspace, by name.' })
  list(): Promise<ProjectView[]> {
    return this.projects.list();
  }

  @McpTool({ name: 'create_project', description: 'Create a project. Names are unique without regard to case.', input: CreateProjectDto })
  create(input: CreateProjectDto): Promise<ProjectView> {
    return this.projects.create(input);
  }

  @McpTool({ name: 'get_project', description: 'Get one project by id.', input: ProjectIdDto })
  get(input: ProjectIdDto): Promise<ProjectView> {
    return this.projects.get(input.project_id);
  }

  @McpTool({ name: 'rename_project', description: 'Rename a project; connected dashboards are told.', input: RenameProjectToolDto })
  rename(input: RenameProjectToolDto): Promise<ProjectView> {
    return this.projects.rename(input.project_id, input);
  }

  @McpTool({ name: 'delete_project', description: 'Delete a project and all of its data.', input: ProjectIdDto })
  async remove(input: ProjectIdDto): Promise<{ deleted: string }> {
    await this.projects.remove(input.project_id);
    return { deleted: input.project_id };
  }
}
