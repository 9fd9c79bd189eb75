import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { CreateProjectDto } from './dto/create-project.dto';
import { DeleteProjectsDto } from './dto/delete-projects.dto';
import { ProjectIdDto } from './dto/project-id.dto';
import { ProjectNameQueryDto } from './dto/project-name-query.dto';
import { RenameProjectDto } from './dto/rename-project.dto';
import { ProjectView } from './project.view';
import { DeleteProjectsResult, ProjectsService } from './projects.service';

@Controller('projects')
export class ProjectsController {
  constructor(private readonly projects: ProjectsService) {}

  @Get()
  list(): Promise<ProjectView[]> {
    return this.projects.list();
  }

  @Post()
  create(@Body() body: CreateProjectDto): Promise<ProjectView> {
    return this.projects.create(body);
  }

  @Delete()
  removeMany(@Body() body: DeleteProjectsDto): Promise<DeleteProjectsResult> {
    return this.projects.removeMany(body.ids);
  }

  @Get('by-name/:name')
  byName(@Param() params: ProjectNameQueryDto): Promise<ProjectView> {
    return this.projects.findByName(params.name);
  }

  @Get(':project_id')
  get(@Param() params: ProjectIdDto): Promise<ProjectView> {
    return this.projects.get(params.project_id);
  }

  @Post(':project_id/rename')
  @HttpCode(200)
  rename(@Param() params: ProjectIdDto, @Body() body: RenameProjectDto): Promise<ProjectView> {
    return this.projects.rename(params.project_id, body);
  }

  @Delete(':project_id')
  @HttpCode(204)
  remove(@Param() params: ProjectIdDto): Promise<void> {
    return this.projects.remove(params.project_id);
  }
}
