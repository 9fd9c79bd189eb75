import { Module } from '@nestjs/common';
import { ContextModule } from '../context/context.module';
import { SessionsModule } from '../sessions/sessions.module';
import { HandoffController } from './handoff.controller';
import { HandoffCorrectionsService } from './handoff-corrections.service';
import { HandoffLedgerModule } from './handoff-ledger.module';
import { HandoffService } from './handoff.service';
import { HandoffTools } from './handoff.tools';
import { QueuedSessionsService } from './queued-sessions.service';

/** Handoffs, corrective handoffs and the queued next-session goal. */
@Module({
  imports: [ContextModule, SessionsModule, HandoffLedgerModule],
  controllers: [HandoffController],
  providers: [HandoffService, HandoffCorrectionsService, QueuedSessionsService, HandoffTools],
  exports: [HandoffService],
})
export class HandoffModule {}
