import { Logger } from '@nestjs/common';
import { currentTenant, runWithTenant, TenantContext } from '../../../libs/tenancy';
import type { SessionView } from '../../modules/sessions/session.view';
import { HandoffCorrectedEvent } from './domain-event-map';
import { DomainEvents } from './domain-events';

const tenant: TenantContext = { tenantId: 't-events', schema: null, role: null, byodbUrlEncrypted: null };
const correction: HandoffCorrectedEvent = { project_id: 'p', session_id: null, correction_id: 'c', summary: 'rebase first' };

/**
 * Never called: `npm run typecheck` checks these lines. Each `@ts-expect-error` fails the check
 * when the line below it compiles, so an unknown event name or a wrong payload stays an error.
 */
export function compileTimeChecks(events: DomainEvents, session: SessionView): void {
  void events.emit('session.started', { session });
  events.on('handoff.corrected', (payload) => void payload.correction_id.toUpperCase());

  // @ts-expect-error a misspelt event name
  void events.emit('session.startd', { session });
  // @ts-expect-error a misspelt event name
  events.on('handoff.correctd', () => undefined);
  // @ts-expect-error the payload of another event
  void events.emit('session.started', correction);
  // @ts-expect-error a payload missing a field
  void events.emit('handoff.corrected', { project_id: 'p', session_id: null, summary: 's' });
  // @ts-expect-error a handler reading a field its event does not carry
  events.on('session.started', (payload) => payload.correction_id);
}

describe('DomainEvents', () => {
  test('every handler of the event receives its payload, in the emitter tenant, and emit resolves once all have finished', async () => {
    const events = new DomainEvents();
    const seen: string[] = [];
    events.on('handoff.corrected', async (payload) => {
      await new Promise<void>((resolve) => setImmediate(resolve));
      seen.push(`slow ${payload.summary} in ${currentTenant().tenantId}`);
    });
    events.on('handoff.corrected', (payload) => void seen.push(`fast ${payload.correction_id}`));
    events.on('session.started', () => void seen.push('other event'));
    await runWithTenant(tenant, () => events.emit('handoff.corrected', correction));
    expect(seen.sort()).toEqual(['fast c', 'slow rebase first in t-events']);
  });

  test('a failing handler is logged and neither rejects emit nor keeps the other handlers from running', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    try {
      const events = new DomainEvents();
      const seen: string[] = [];
      events.on('handoff.corrected', () => {
        throw new Error('store down');
      });
      events.on('handoff.corrected', () => void seen.push('ran'));
      await expect(runWithTenant(tenant, () => events.emit('handoff.corrected', correction))).resolves.toBeUndefined();
      expect(seen).toEqual(['ran']);
      expect(logged).toHaveBeenCalledWith(expect.objectContaining({ msg: 'domain event handler failed', event: 'handoff.corrected', error: 'store down' }));
    } finally {
      logged.mockRestore();
    }
  });

  test('an event without handlers is emitted without needing a tenant', async () => {
    await expect(new DomainEvents().emit('handoff.corrected', correction)).resolves.toBeUndefined();
  });
});
