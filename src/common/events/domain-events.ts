import { Injectable, Logger } from '@nestjs/common';
import { currentTenant, runWithTenant } from '../../../libs/tenancy';
import { DomainEventMap, DomainEventName } from './domain-event-map';

export type DomainEventHandler<E extends DomainEventName> = (payload: DomainEventMap[E]) => Promise<void> | void;

/**
 * In-process domain events between modules, each named with its payload in
 * DomainEventMap ("session.started", "handoff.corrected", ...). A handler
 * runs after the emitter's call, in the emitter's tenant context, and its
 * failure is logged, never thrown back: use it for follow-up work such as
 * recording activity. Work that must commit
 * together with the change belongs in the emitter's transaction instead
 * (see SessionCloseHooks).
 */
@Injectable()
export class DomainEvents {
  private readonly logger = new Logger('domain-events');
  /** Each list holds the handlers of its own event only, as `on` is typed: `emit` reads it back as such. */
  private readonly handlers = new Map<DomainEventName, DomainEventHandler<never>[]>();

  on<E extends DomainEventName>(event: E, handler: DomainEventHandler<E>): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
  }

  /** Runs every handler of `event`; resolves when all have finished (or failed and been logged). */
  async emit<E extends DomainEventName>(event: E, payload: DomainEventMap[E]): Promise<void> {
    const handlers = this.handlers.get(event) as DomainEventHandler<E>[] | undefined;
    if (!handlers) return;
    const tenant = currentTenant();
    await Promise.all(
      handlers.map(async (handler) => {
        try {
          await runWithTenant(tenant, () => handler(payload));
        } catch (error) {
          this.logger.error({ msg: 'domain event handler failed', event, error: (error as Error).message, stack: (error as Error).stack });
        }
      }),
    );
  }
}
