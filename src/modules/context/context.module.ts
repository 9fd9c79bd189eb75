import { Module } from '@nestjs/common';
import { HandoffLedgerModule } from '../handoff/handoff-ledger.module';
import { ProfileLayersModule } from '../profile-layers/profile-layers.module';
import { SessionsModule } from '../sessions/sessions.module';
import { ContextBlockService } from './context-block.service';
import { ContextController } from './context.controller';
import { ContextTools } from './context.tools';
import { SessionNotesController } from './session-notes.controller';
import { SessionNotesService } from './session-notes.service';
import { SessionsSectionProvider } from './sessions-section.provider';
import { StartSessionService } from './start-session.service';

/** start_session, the context block and session scratch-pad notes. */
@Module({
  imports: [SessionsModule, HandoffLedgerModule, ProfileLayersModule],
  controllers: [ContextController, SessionNotesController],
  providers: [ContextBlockService, StartSessionService, SessionNotesService, SessionsSectionProvider, ContextTools],
  exports: [ContextBlockService, StartSessionService, SessionNotesService],
})
export class ContextModule {}
