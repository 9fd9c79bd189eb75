import { Module } from '@nestjs/common';
import { ProjectExtrasController } from './project-extras.controller';
import { ProjectExtrasService } from './project-extras.service';
import { ProjectExtrasTools } from './project-extras.tools';
import { ProjectFilesController } from './project-files.controller';
import { ProjectFilesService } from './project-files.service';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';
import { ProjectsTools } from './projects.tools';

@Module({
  controllers: [ProjectsController, ProjectExtrasController, ProjectFilesController],
  providers: [ProjectsService, ProjectsTools, ProjectExtrasService, ProjectFilesService, ProjectExtrasTools],
  exports: [ProjectsService],
})
export class ProjectsModule {}
