import { CodehostModule } from '../codehost/codehost.module';
import { Module } from '@nestjs/common';
import { ContextModule } from '../context/context.module';
import { ProfileLayersModule } from '../profile-layers/profile-layers.module';
import { SessionsModule } from '../sessions/sessions.module';
import { HandoffAcceptService } from './handoff-accept.service';
import { HandoffAtClose } from './handoff-at-close.service';
import { HandoffController } from './handoff.controller';
import { HandoffCorrectionsService } from './handoff-corrections.service';
import { HandoffDrafts } from './handoff-drafts.service';
import { HandoffFiles } from './handoff-files.service';
import { HandoffLedgerModule } from './handoff-ledger.module';
import { HandoffMaterialService } from './handoff-material.service';
import { HandoffService } from './handoff.service';
import { HandoffContextSection } from './handoff-context.section';
import { HandoffTools } from './handoff.tools';
import { QueuedSessionsService } from './queued-sessions.service';

/** Handoffs, corrective handoffs and the queued next-session goal. */
@Module({
  imports: [ContextModule, SessionsModule, HandoffLedgerModule, ProfileLayersModule, CodehostModule],
  controllers: [HandoffController],
  providers: [
    HandoffService,
    HandoffAtClose,
    HandoffDrafts,
    HandoffFiles,
    HandoffContextSection,
    HandoffAcceptService,
    HandoffMaterialService,
    HandoffCorrectionsService,
    QueuedSessionsService,
    HandoffTools,
  ],
  exports: [HandoffService],
})
export class HandoffModule {}
