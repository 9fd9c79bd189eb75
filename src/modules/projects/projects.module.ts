import { Module } from '@nestjs/common';
import { ProjectsController } from './projects.controller';
import { ProjectsService } from './projects.service';
import { ProjectsTools } from './projects.tools';

@Module({
  controllers: [ProjectsController],
  providers: [ProjectsService, ProjectsTools],
  exports: [ProjectsService],
})
export class ProjectsModule {}
