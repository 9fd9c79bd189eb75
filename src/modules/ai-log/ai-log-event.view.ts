import { fromSqlTimestamp } from '../../../libs/tenancy';
import { AiLogEventKind } from './ai-log-event.entity';

/** An AI-log event as clients see it (timeline, export_ai_log lines). */
export interface AiLogEventView {
  /** Position in the tenant's log: increases with every event written. */
  seq: number;
  id: string;
  kind: AiLogEventKind;
  occurred_at: string;
  project_id: string | null;
  session_id: string | null;
  tool: string | null;
  outcome: 'ok' | 'error' | null;
  error_code: string | null;
  duration_ms: number | null;
  summary: string;
  /** Tool calls: `{arguments, error_detail?}` (arguments redacted); session starts: `{name, human_id, kind}`; corrections: `{correction_id, summary}`. */
  data: Record<string, unknown>;
}

/**
 * A sprint item of milestone_type `milestone` on the project's timeline: one
 * marker when it was created and one when it was completed. It has the shape
 * of an event so a timeline is one list; `seq` is 0 as it is not in the log.
 */
export interface MilestoneMarkerView extends Omit<AiLogEventView, 'kind' | 'data'> {
  kind: 'milestone';
  data: { item_id: string; marker: 'created' | 'completed'; title: string; status: string };
}

/** What a project timeline lists: AI-log events and milestone markers, in time order. */
export type TimelineEntryView = AiLogEventView | MilestoneMarkerView;

/** A page of a project's timeline (GET /projects/{id}/timeline). */
export interface TimelinePage {
  project_id: string;
  events: TimelineEntryView[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** A row of ai_log_events as a raw query returns it on either dialect. */
export interface AiLogEventRow {
  seq: number | string;
  id: string;
  kind: AiLogEventKind;
  occurred_at: Date | string;
  project_id: string | null;
  session_id: string | null;
  tool: string | null;
  outcome: 'ok' | 'error' | null;
  error_code: string | null;
  duration_ms: number | string | null;
  summary: string;
  data: string;
}

export const EVENT_COLUMNS = 'seq, id, kind, occurred_at, project_id, session_id, tool, outcome, error_code, duration_ms, summary, data';

export function toEventView(row: AiLogEventRow): AiLogEventView {
  let data: Record<string, unknown>;
  try {
    data = JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    data = {};
  }
  return {
    seq: Number(row.seq),
    id: row.id,
    kind: row.kind,
    occurred_at: fromSqlTimestamp(row.occurred_at).toISOString(),
    project_id: row.project_id,
    session_id: row.session_id,
    tool: row.tool,
    outcome: row.outcome,
    error_code: row.error_code,
    duration_ms: row.duration_ms === null ? null : Number(row.duration_ms),
    summary: row.summary,
    data,
  };
}
