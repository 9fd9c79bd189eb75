import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { PublicUrl } from './public-url';
import { BYODB_GUARD, HTTP_OUTBOUND_GUARD, OUTBOUND_GUARD_PROVIDERS } from './outbound/outbound-guards';
import { DomainEvents } from './events/domain-events';
import { ContextSections } from './extensions/context-sections';
import { HandoffHooks } from './extensions/handoff-hooks';
import { StartSessionExtras } from './extensions/start-session-extras';

/** Cross-module services every feature module may inject. */
@Global()
@Module({
  providers: [Clock, PublicUrl, DomainEvents, ContextSections, HandoffHooks, StartSessionExtras, ...OUTBOUND_GUARD_PROVIDERS],
  exports: [Clock, PublicUrl, DomainEvents, ContextSections, HandoffHooks, StartSessionExtras, BYODB_GUARD, HTTP_OUTBOUND_GUARD],
})
export class CommonModule {}
