import { Injectable } from '@nestjs/common';
import { McpTool } from '../../mcp/mcp-tool.decorator';
import { IDEMPOTENT_UPDATE, READ_ONLY } from '../../mcp/tool-annotations';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { UpdateProjectSettingsDto } from './dto/update-project-settings.dto';
import { ProjectSettingsService } from './project-settings.service';

@Injectable()
export class ProjectSettingsTools {
  constructor(private readonly settings: ProjectSettingsService) {}

  @McpTool({ name: 'get_project_settings', annotations: READ_ONLY, description: "Read a project's settings.", input: ProjectIdDto })
  get(input: ProjectIdDto) {
    return this.settings.get(input.project_id);
  }

  @McpTool({
    name: 'update_project_settings',
    annotations: IDEMPOTENT_UPDATE,
    description: "Change some of a project's settings; fields not given keep their value.",
    params: ProjectIdDto,
    body: UpdateProjectSettingsDto,
  })
  update(params: ProjectIdDto, body: UpdateProjectSettingsDto) {
    return this.settings.update(params.project_id, body);
  }
}
