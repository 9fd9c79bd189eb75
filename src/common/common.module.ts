import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { DomainEvents } from './events/domain-events';
import { ContextSections } from './extensions/context-sections';
import { HandoffHooks } from './extensions/handoff-hooks';
import { StartSessionExtras } from './extensions/start-session-extras';

/** Cross-module services every feature module may inject. */
@Global()
@Module({
  providers: [Clock, DomainEvents, ContextSections, HandoffHooks, StartSessionExtras],
  exports: [Clock, DomainEvents, ContextSections, HandoffHooks, StartSessionExtras],
})
export class CommonModule {}
