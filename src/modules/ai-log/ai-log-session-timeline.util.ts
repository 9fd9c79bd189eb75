import { fromSqlTimestamp } from '../../../libs/tenancy';
import { Session } from '../sessions/session.entity';
import { AiLogEventRow, AiLogEventView, toEventView } from './ai-log-event.view';

export interface ToolUsage {
  tool: string;
  calls: number;
  errors: number;
  total_duration_ms: number;
}

export interface SessionActivity {
  session_id: string;
  name: string;
  human_id: string;
  kind: string;
  status: string;
  started_at: string;
  closed_at: string | null;
  first_event_at: string | null;
  last_event_at: string | null;
  event_count: number;
  tool_calls: number;
  errors: number;
  handoff_corrections: number;
  tools: ToolUsage[];
  /** The session's events in the window, oldest first: the latest EVENTS_PER_SESSION of them. */
  events: AiLogEventView[];
  events_truncated: boolean;
}

/** One session's counts over the window, as the aggregate query returns them on either dialect. */
export interface SessionAggregate {
  session_id: string;
  event_count: number | string;
  tool_calls: number | string;
  errors: number | string;
  handoff_corrections: number | string;
  first_event_at: Date | string | null;
  last_event_at: Date | string | null;
}

/** One tool's calls by one session over the window, as the query returns them on either dialect. */
export interface SessionToolRow {
  session_id: string;
  tool: string;
  calls: number | string;
  errors: number | string;
  total_ms: number | string;
}

export type TimelineSession = Pick<Session, 'id' | 'name' | 'human_id' | 'kind' | 'status' | 'created_at' | 'closed_at'>;

export interface SessionTimelineRows {
  /** The sessions to show, in order (sessionsToShow). */
  ids: string[];
  sessions: ReadonlyMap<string, TimelineSession>;
  /** Most recently active first; a session with no event in the window has none. */
  aggregates: readonly SessionAggregate[];
  /** By session, then most called first. */
  tools: readonly SessionToolRow[];
  /** The latest events of each session, oldest first. */
  events: readonly AiLogEventRow[];
}

/**
 * The sessions a session timeline shows: those the aggregate query found
 * (most recently active first), or, when one session was asked for and it
 * did nothing in the window, that session alone, with empty counts.
 */
export function sessionsToShow(aggregates: readonly SessionAggregate[], askedFor?: string): string[] {
  const ids = aggregates.map((a) => a.session_id);
  if (askedFor && ids.length === 0) ids.push(askedFor);
  return ids;
}

/**
 * Puts the rows of the session timeline queries together: one entry per
 * session of `ids`, in that order, with its counts, its tools and its events.
 * A session whose row is gone (deleted since) keeps its place with empty
 * fields; counts come back from the database as numbers or strings and leave
 * as numbers.
 */
export function assembleSessionTimeline(rows: SessionTimelineRows): SessionActivity[] {
  const aggregates = new Map(rows.aggregates.map((a) => [a.session_id, a]));
  const tools = groupBy(rows.tools, (t) => t.session_id);
  const events = groupBy(rows.events, (e) => e.session_id);
  return rows.ids.map((id) => {
    const session = rows.sessions.get(id);
    const agg = aggregates.get(id);
    const shown = (events.get(id) ?? []).map(toEventView);
    const count = Number(agg?.event_count ?? 0);
    return {
      session_id: id,
      name: session?.name ?? '',
      human_id: session?.human_id ?? '',
      kind: session?.kind ?? '',
      status: session?.status ?? '',
      started_at: session ? session.created_at.toISOString() : '',
      closed_at: session?.closed_at ? session.closed_at.toISOString() : null,
      first_event_at: agg?.first_event_at ? fromSqlTimestamp(agg.first_event_at).toISOString() : null,
      last_event_at: agg?.last_event_at ? fromSqlTimestamp(agg.last_event_at).toISOString() : null,
      event_count: count,
      tool_calls: Number(agg?.tool_calls ?? 0),
      errors: Number(agg?.errors ?? 0),
      handoff_corrections: Number(agg?.handoff_corrections ?? 0),
      tools: (tools.get(id) ?? []).map(toolUsage),
      events: shown,
      events_truncated: count > shown.length,
    };
  });
}

function toolUsage(row: SessionToolRow): ToolUsage {
  // A sum of floating-point durations carries rounding noise in its last digits: three decimals are kept.
  return { tool: row.tool, calls: Number(row.calls), errors: Number(row.errors), total_duration_ms: Math.round(Number(row.total_ms) * 1000) / 1000 };
}

/** The rows by key, each group in the order the rows came. */
function groupBy<T>(rows: readonly T[], keyOf: (row: T) => string | null): Map<string | null, T[]> {
  const groups = new Map<string | null, T[]>();
  for (const row of rows) {
    const key = keyOf(row);
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
