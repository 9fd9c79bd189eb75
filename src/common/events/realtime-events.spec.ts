import { RealtimeEvent, RealtimeEvents } from './realtime-events';

const renamed: RealtimeEvent = { tenantId: 't1', event: 'project_renamed', data: { project_id: 'p', old_name: 'a', name: 'b' } };

/** Never called: `npm run typecheck` checks that an event name the dashboards do not know fails to compile. */
export function compileTimeChecks(events: RealtimeEvents): void {
  events.publish({ tenantId: 't', event: 'session_closed', data: {} });
  // @ts-expect-error a misspelt event name
  events.publish({ tenantId: 't', event: 'session_close', data: {} });
}

describe('RealtimeEvents', () => {
  test('without a relay a published event reaches the local subscribers until they unsubscribe', () => {
    const events = new RealtimeEvents();
    const seen: RealtimeEvent[] = [];
    const unsubscribe = events.subscribe((event) => seen.push(event));
    events.publish(renamed);
    unsubscribe();
    events.publish(renamed);
    expect(seen).toEqual([renamed]);
  });

  test('with a relay a published event goes to the relay alone, which delivers it locally itself', () => {
    const events = new RealtimeEvents();
    const seen: RealtimeEvent[] = [];
    const relayed: RealtimeEvent[] = [];
    events.subscribe((event) => seen.push(event));
    events.setRelay((event) => relayed.push(event));
    events.publish(renamed);
    expect(relayed).toEqual([renamed]);
    expect(seen).toEqual([]);
    events.deliverLocal(renamed);
    expect(seen).toEqual([renamed]);
  });
});
