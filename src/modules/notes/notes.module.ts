import { Module } from '@nestjs/common';
import { DecisionLogController } from './decision-log.controller';
import { ChatModel } from '../../common/llm/chat-model';
import { DecisionConsolidationService } from './decision-consolidation.service';
import { DecisionLogService } from './decision-log.service';
import { DevlogService } from './devlog.service';
import { InsightsService } from './insights.service';
import { KnowledgeEvents } from './knowledge-events.service';
import { NotesController } from './notes.controller';
import { NotesTools } from './notes.tools';
import { PinnedDecisionsContextSection } from './pinned-decisions-context.section';
import { PinnedDecisionsController } from './pinned-decisions.controller';
import { PinnedDecisionsService } from './pinned-decisions.service';
import { PinnedDecisionsTools } from './pinned-decisions.tools';
import { ProjectNotesService } from './project-notes.service';

@Module({
  controllers: [NotesController, DecisionLogController, PinnedDecisionsController],
  providers: [
    ChatModel,
    DecisionConsolidationService,
    ProjectNotesService,
    InsightsService,
    KnowledgeEvents,
    DecisionLogService,
    DevlogService,
    PinnedDecisionsService,
    PinnedDecisionsContextSection,
    NotesTools,
    PinnedDecisionsTools,
  ],
  exports: [ProjectNotesService, PinnedDecisionsService, KnowledgeEvents],
})
export class NotesModule {}
