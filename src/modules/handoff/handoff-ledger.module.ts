import { Module } from '@nestjs/common';
import { HandoffLedger } from './handoff-ledger.service';

/**
 * The handoff record on its own, so that session start (which uses a
 * handoff's token) and handoff generation (which needs the context block)
 * both reach it without depending on each other.
 */
@Module({
  providers: [HandoffLedger],
  exports: [HandoffLedger],
})
export class HandoffLedgerModule {}
