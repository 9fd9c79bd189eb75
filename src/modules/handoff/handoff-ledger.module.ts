import { Module } from '@nestjs/common';
import { SessionsModule } from '../sessions/sessions.module';
import { HandoffCarry } from './handoff-carry.service';
import { HandoffLedger } from './handoff-ledger.service';
import { HandoffTokens } from './handoff-tokens.service';

/**
 * The handoff record on its own, so that session start (which uses a
 * handoff's token) and handoff generation (which needs the context block)
 * both reach it without depending on each other.
 */
@Module({
  imports: [SessionsModule],
  providers: [HandoffLedger, HandoffCarry, HandoffTokens],
  exports: [HandoffLedger, HandoffCarry, HandoffTokens],
})
export class HandoffLedgerModule {}
