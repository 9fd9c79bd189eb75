import { Module } from '@nestjs/common';
import { DecisionLogController } from './decision-log.controller';
import { DecisionLogService } from './decision-log.service';
import { DevlogService } from './devlog.service';
import { InsightsService } from './insights.service';
import { NotesController } from './notes.controller';
import { NotesTools } from './notes.tools';
import { PinnedDecisionsContextSection } from './pinned-decisions-context.section';
import { PinnedDecisionsController } from './pinned-decisions.controller';
import { PinnedDecisionsService } from './pinned-decisions.service';
import { PinnedDecisionsTools } from './pinned-decisions.tools';
import { ProjectNotesService } from './project-notes.service';

@Module({
  controllers: [NotesController, DecisionLogController, PinnedDecisionsController],
  providers: [ProjectNotesService, InsightsService, DecisionLogService, DevlogService, PinnedDecisionsService, PinnedDecisionsContextSection, NotesTools, PinnedDecisionsTools],
  exports: [ProjectNotesService, PinnedDecisionsService],
})
export class NotesModule {}
