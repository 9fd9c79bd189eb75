import { Module } from '@nestjs/common';
import { CodehostModule } from '../codehost/codehost.module';
import { HitlModule } from '../hitl/hitl.module';
import { InstructionFilesService } from './instruction-files.service';
import { ProjectExtrasController } from './project-extras.controller';
import { ProjectExtrasService } from './project-extras.service';
import { ProjectExtrasTools } from './project-extras.tools';
import { ProjectFilesController } from './project-files.controller';
import { ProjectFilesService } from './project-files.service';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';
import { ProjectsTools } from './projects.tools';

@Module({
  imports: [HitlModule, CodehostModule],
  controllers: [ProjectsController, ProjectExtrasController, ProjectFilesController],
  providers: [ProjectsService, ProjectsTools, ProjectExtrasService, ProjectFilesService, ProjectExtrasTools, InstructionFilesService],
  exports: [ProjectsService, ProjectFilesService],
})
export class ProjectsModule {}
