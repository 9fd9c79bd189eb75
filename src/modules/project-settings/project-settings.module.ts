import { Global, Module } from '@nestjs/common';
import { ProjectSettingsController } from './project-settings.controller';
import { ProjectSettingsService } from './project-settings.service';
import { ProjectSettingsTools } from './project-settings.tools';

@Global()
@Module({
  controllers: [ProjectSettingsController],
  providers: [ProjectSettingsService, ProjectSettingsTools],
  exports: [ProjectSettingsService],
})
export class ProjectSettingsModule {}
