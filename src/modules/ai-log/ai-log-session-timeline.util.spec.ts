import { AiLogEventRow } from './ai-log-event.view';
import { assembleSessionTimeline, SessionAggregate, sessionsToShow, SessionTimelineRows, SessionToolRow, TimelineSession } from './ai-log-session-timeline.util';

const session = (id: string, fields: Partial<TimelineSession> = {}): TimelineSession => ({
  id,
  name: `worker ${id}`,
  human_id: 'ada',
  kind: 'worker',
  status: 'active',
  created_at: new Date('2026-03-01T09:00:00Z'),
  closed_at: null,
  ...fields,
});

const aggregate = (session_id: string, fields: Partial<SessionAggregate> = {}): SessionAggregate => ({
  session_id,
  event_count: 2,
  tool_calls: 1,
  errors: 0,
  handoff_corrections: 0,
  first_event_at: '2026-03-01 09:00:01',
  last_event_at: '2026-03-01 09:05:00',
  ...fields,
});

let seq = 0;
const event = (session_id: string, occurred_at: string, fields: Partial<AiLogEventRow> = {}): AiLogEventRow => ({
  seq: String(++seq),
  id: `event-${seq}`,
  kind: 'tool_call',
  occurred_at,
  project_id: 'p',
  session_id,
  tool: 'claim_sprint_item',
  outcome: 'ok',
  error_code: null,
  duration_ms: '1.5',
  summary: 'claimed',
  data: '{"arguments":{}}',
  ...fields,
});

const tool = (session_id: string, name: string, calls: number | string, errors: number | string, total_ms: number | string): SessionToolRow => ({
  session_id,
  tool: name,
  calls,
  errors,
  total_ms,
});

function rows(fields: Partial<SessionTimelineRows>): SessionTimelineRows {
  return { ids: [], sessions: new Map(), aggregates: [], tools: [], events: [], ...fields };
}

describe('sessionsToShow', () => {
  test('the sessions the aggregate found, in its order (most recently active first)', () => {
    expect(sessionsToShow([aggregate('b'), aggregate('a')])).toEqual(['b', 'a']);
    expect(sessionsToShow([aggregate('b')], 'b')).toEqual(['b']);
  });

  test('a session asked for that did nothing in the window is still shown; with none asked for, nothing is', () => {
    expect(sessionsToShow([], 's1')).toEqual(['s1']);
    expect(sessionsToShow([])).toEqual([]);
  });
});

describe('assembleSessionTimeline', () => {
  test('each session gets its own counts, tools and events, in the order of ids, whatever order the rows came in', () => {
    const sessions = new Map([
      ['a', session('a')],
      ['b', session('b', { status: 'closed', closed_at: new Date('2026-03-01T10:00:00Z') })],
    ]);
    const timeline = assembleSessionTimeline(
      rows({
        ids: ['b', 'a'],
        sessions,
        aggregates: [aggregate('a', { event_count: '2', tool_calls: '2', errors: '1' }), aggregate('b', { event_count: 1, tool_calls: 1 })],
        tools: [tool('a', 'claim_sprint_item', '1', '1', '2.5'), tool('a', 'add_note', 1, 0, 0), tool('b', 'start_session', 1, 0, 4)],
        events: [event('a', '2026-03-01 09:00:01'), event('b', '2026-03-01 09:01:00', { tool: 'start_session' }), event('a', '2026-03-01 09:05:00', { outcome: 'error' })],
      }),
    );
    expect(timeline.map((s) => s.session_id)).toEqual(['b', 'a']);
    const [b, a] = timeline;
    expect(b).toMatchObject({ name: 'worker b', status: 'closed', closed_at: '2026-03-01T10:00:00.000Z', event_count: 1, tool_calls: 1, errors: 0, events_truncated: false });
    expect(b.tools).toEqual([{ tool: 'start_session', calls: 1, errors: 0, total_duration_ms: 4 }]);
    expect(b.events.map((e) => e.tool)).toEqual(['start_session']);
    expect(a).toMatchObject({ started_at: '2026-03-01T09:00:00.000Z', closed_at: null, event_count: 2, tool_calls: 2, errors: 1, handoff_corrections: 0 });
    expect(a.tools).toEqual([
      { tool: 'claim_sprint_item', calls: 1, errors: 1, total_duration_ms: 2.5 },
      { tool: 'add_note', calls: 1, errors: 0, total_duration_ms: 0 },
    ]);
    expect(a.events.map((e) => [e.occurred_at, e.outcome])).toEqual([
      ['2026-03-01T09:00:01.000Z', 'ok'],
      ['2026-03-01T09:05:00.000Z', 'error'],
    ]);
    expect(a.events[0]).toMatchObject({ duration_ms: 1.5, data: { arguments: {} } });
  });

  test('event times from either dialect (a Date, or SQLite text without a zone, read as UTC) come out as ISO strings', () => {
    const [s] = assembleSessionTimeline(
      rows({
        ids: ['a'],
        sessions: new Map([['a', session('a')]]),
        aggregates: [aggregate('a', { event_count: 1, first_event_at: new Date('2026-03-01T09:00:01Z'), last_event_at: '2026-03-01 09:00:01.250' })],
      }),
    );
    expect(s.first_event_at).toBe('2026-03-01T09:00:01.000Z');
    expect(s.last_event_at).toBe('2026-03-01T09:00:01.250Z');
  });

  test('fewer events than the count means the list was cut to the latest ones', () => {
    const [s] = assembleSessionTimeline(
      rows({ ids: ['a'], sessions: new Map([['a', session('a')]]), aggregates: [aggregate('a', { event_count: '150' })], events: [event('a', '2026-03-01 09:00:01')] }),
    );
    expect(s.event_count).toBe(150);
    expect(s.events).toHaveLength(1);
    expect(s.events_truncated).toBe(true);
  });

  test('a session asked for with no activity in the window has zero counts, no times and no events', () => {
    const [s] = assembleSessionTimeline(rows({ ids: ['quiet'], sessions: new Map([['quiet', session('quiet')]]) }));
    expect(s).toEqual({
      session_id: 'quiet',
      name: 'worker quiet',
      human_id: 'ada',
      kind: 'worker',
      status: 'active',
      started_at: '2026-03-01T09:00:00.000Z',
      closed_at: null,
      first_event_at: null,
      last_event_at: null,
      event_count: 0,
      tool_calls: 0,
      errors: 0,
      handoff_corrections: 0,
      tools: [],
      events: [],
      events_truncated: false,
    });
  });

  test('a session whose row is gone keeps its place with empty fields', () => {
    const [s] = assembleSessionTimeline(rows({ ids: ['gone'], aggregates: [aggregate('gone', { event_count: 1 })], events: [event('gone', '2026-03-01 09:00:01')] }));
    expect(s).toMatchObject({ session_id: 'gone', name: '', human_id: '', kind: '', status: '', started_at: '', closed_at: null, event_count: 1 });
    expect(s.events).toHaveLength(1);
  });

  test('a total duration keeps three decimals', () => {
    const [s] = assembleSessionTimeline(rows({ ids: ['a'], tools: [tool('a', 'x', 3, 0, 0.1 + 0.2 + 1.0004)] }));
    expect(s.tools[0].total_duration_ms).toBe(1.3);
  });
});
