import { Global, Module } from '@nestjs/common';
import { Clock } from './clock';
import { ShutdownDrain } from './lifecycle/shutdown-drain';
import { Metrics } from './observability/metrics';
import { Tracing, tracesEndpoint } from './observability/tracing';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/** Traces only when an OTLP endpoint is configured (the SDK is loaded then only). */
const TRACING = {
  provide: Tracing,
  inject: [APP_CONFIG],
  useFactory: (config: AppConfig) => new Tracing(tracesEndpoint(config.otlpTracesEndpoint, config.otlpEndpoint), config.version, config.otelServiceName),
};
import { PublicUrl } from './public-url';
import { BYODB_GUARD, HTTP_OUTBOUND_GUARD, OUTBOUND_GUARD_PROVIDERS } from './outbound/outbound-guards';
import { DomainEvents } from './events/domain-events';
import { ContextSections } from './extensions/context-sections';
import { HandoffHooks } from './extensions/handoff-hooks';
import { StartSessionExtras } from './extensions/start-session-extras';

/** Cross-module services every feature module may inject. */
@Global()
@Module({
  providers: [Clock, ShutdownDrain, Metrics, TRACING, PublicUrl, DomainEvents, ContextSections, HandoffHooks, StartSessionExtras, ...OUTBOUND_GUARD_PROVIDERS],
  exports: [Clock, ShutdownDrain, Metrics, Tracing, PublicUrl, DomainEvents, ContextSections, HandoffHooks, StartSessionExtras, BYODB_GUARD, HTTP_OUTBOUND_GUARD],
})
export class CommonModule {}
