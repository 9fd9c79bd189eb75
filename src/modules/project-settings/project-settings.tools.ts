import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { UpdateProjectSettingsToolDto } from './dto/update-project-settings-tool.dto';
import { ProjectSettingsService } from './project-settings.service';

@Injectable()
export class ProjectSettingsTools {
  constructor(private readonly settings: ProjectSettingsService) {}

  @McpTool({ name: 'get_project_settings', description: "Read a project's settings.", input: ProjectIdDto })
  get(input: ProjectIdDto) {
    return this.settings.get(input.project_id);
  }

  @McpTool({ name: 'update_project_settings', description: "Change some of a project's settings; fields not given keep their value.", input: UpdateProjectSettingsToolDto })
  update(input: UpdateProjectSettingsToolDto) {
    return this.settings.update(input.project_id, input);
  }
}
