import { Body, Controller, Get, Param, Patch } from '@nestjs/common';
import { ProjectIdDto } from '../projects/dto/project-id.dto';
import { UpdateProjectSettingsDto } from './dto/update-project-settings.dto';
import { ProjectSettings } from './project-settings.constants';
import { ProjectSettingsService } from './project-settings.service';

@Controller('projects/:project_id/settings')
export class ProjectSettingsController {
  constructor(private readonly settings: ProjectSettingsService) {}

  @Get()
  get(@Param() params: ProjectIdDto): Promise<ProjectSettings> {
    return this.settings.get(params.project_id);
  }

  @Patch()
  update(@Param() params: ProjectIdDto, @Body() body: UpdateProjectSettingsDto): Promise<ProjectSettings> {
    return this.settings.update(params.project_id, body);
  }
}
