import { Global, Module } from '@nestjs/common';
import { ProfileLayersModule } from '../profile-layers/profile-layers.module';
import { ProjectSettingsController } from './project-settings.controller';
import { ProjectSettingsService } from './project-settings.service';
import { ProjectSettingsTools } from './project-settings.tools';

@Global()
@Module({
  imports: [ProfileLayersModule],
  controllers: [ProjectSettingsController],
  providers: [ProjectSettingsService, ProjectSettingsTools],
  exports: [ProjectSettingsService],
})
export class ProjectSettingsModule {}
