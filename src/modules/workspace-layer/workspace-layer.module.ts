import { Module } from '@nestjs/common';
import { NotesModule } from '../notes/notes.module';
import { WorkspaceBlogController } from './workspace-blog.controller';
import { WorkspaceBlogService } from './workspace-blog.service';
import { WorkspaceContextSection } from './workspace-context.section';
import { WorkspaceDecisionsService } from './workspace-decisions.service';
import { WorkspaceLayerController } from './workspace-layer.controller';
import { WorkspaceLayerTools } from './workspace-layer.tools';
import { WorkspaceNotesService } from './workspace-notes.service';
import { WorkspaceSettingsService } from './workspace-settings.service';
import { WorkspaceSprintItemsService } from './workspace-sprint-items.service';

@Module({
  imports: [NotesModule],
  controllers: [WorkspaceLayerController, WorkspaceBlogController],
  providers: [
    WorkspaceBlogService,
    WorkspaceNotesService,
    WorkspaceDecisionsService,
    WorkspaceSprintItemsService,
    WorkspaceSettingsService,
    WorkspaceContextSection,
    WorkspaceLayerTools,
  ],
  exports: [WorkspaceSettingsService],
})
export class WorkspaceLayerModule {}
