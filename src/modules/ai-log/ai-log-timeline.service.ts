import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { bindParams, TenantDb } from '../../../libs/tenancy';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { AiLogRecorder } from './ai-log-recorder.service';
import { SprintItem } from '../sprint/sprint-item.entity';
import { AiLogEventRow, EVENT_COLUMNS, MilestoneMarkerView, TimelineEntryView, TimelinePage, toEventView } from './ai-log-event.view';
import { assembleSessionTimeline, SessionActivity, SessionAggregate, sessionsToShow, SessionToolRow } from './ai-log-session-timeline.util';
import { Cursor, decodeCursor, encodeCursor, parseRange, Where } from './ai-log-query.util';
import { AiLogError } from './ai-log.errors';
import { SessionTimelineQueryDto } from './dto/session-timeline-query.dto';
import { TimelineQueryDto } from './dto/timeline-query.dto';

export type { TimelinePage } from './ai-log-event.view';

const DEFAULT_PAGE = 100;
const DEFAULT_SESSIONS = 20;
export const EVENTS_PER_SESSION = 100;

/** The project timelines: a flat list of events, and the same activity grouped by session. */
@Injectable()
export class AiLogTimelineService {
  constructor(
    private readonly db: TenantDb,
    private readonly recorder: AiLogRecorder,
  ) {}

  /** The project's events and milestone markers, newest first, one page at a time. */
  async timeline(projectId: string, query: TimelineQueryDto): Promise<TimelinePage> {
    const range = parseRange(query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    const limit = query.limit ?? DEFAULT_PAGE;
    const kind = query.kind === 'milestone' ? undefined : query.kind;
    await this.recorder.flush();
    const { rows, items } = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      // Milestones are the project's, not a session's: a session's timeline shows none.
      const withMarkers = !query.session_id && (query.kind === undefined || query.kind === 'milestone');
      const items = withMarkers ? await m.find(SprintItem, { where: { project_id: projectId, milestone_type: 'milestone' } }) : [];
      if (query.kind === 'milestone') return { rows: [] as AiLogEventRow[], items };
      const where = new Where(this.db.dialect).filter({ projectId, sessionId: query.session_id, kind, ...range });
      if (cursor) where.after(cursor, 'desc');
      const [sql, params] = bindParams(
        this.db.dialect,
        `SELECT ${EVENT_COLUMNS} FROM ai_log_events ${where.sql} ORDER BY occurred_at DESC, seq DESC LIMIT ${where.value(limit + 1)}`,
        where.params,
      );
      return { rows: (await m.query(sql, params)) as AiLogEventRow[], items };
    });
    const markers = milestoneMarkers(projectId, items).filter((marker) => inWindow(marker, range, cursor));
    const entries: TimelineEntryView[] = [...rows.map(toEventView), ...markers].sort(newestFirst);
    const events = entries.slice(0, limit);
    const last = events[events.length - 1];
    return { project_id: projectId, events, next_cursor: entries.length > limit && last ? encodeCursor(last) : null };
  }

  /** The project's sessions that were active in the window (or the one asked for), most recently active first. */
  async sessionTimeline(projectId: string, query: SessionTimelineQueryDto): Promise<{ project_id: string; sessions: SessionActivity[] }> {
    const range = parseRange(query);
    const limit = query.limit ?? DEFAULT_SESSIONS;
    await this.recorder.flush();
    const dialect = this.db.dialect;
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (query.session_id && !(await m.findOneBy(Session, { id: query.session_id, project_id: projectId }))) {
        throw AiLogError.sessionNotFound(query.session_id);
      }
      const where = new Where(dialect).filter({ projectId, sessionId: query.session_id, ...range }, 'e.');
      where.add(`s.project_id = ${where.value(projectId)}`);
      const [aggSql, aggParams] = bindParams(
        dialect,
        `SELECT e.session_id, COUNT(*) AS event_count,
                SUM(CASE WHEN e.kind = 'tool_call' THEN 1 ELSE 0 END) AS tool_calls,
                SUM(CASE WHEN e.outcome = 'error' THEN 1 ELSE 0 END) AS errors,
                SUM(CASE WHEN e.kind = 'handoff_correction' THEN 1 ELSE 0 END) AS handoff_corrections,
                MIN(e.occurred_at) AS first_event_at, MAX(e.occurred_at) AS last_event_at
           FROM ai_log_events e JOIN sessions s ON s.id = e.session_id
           ${where.sql}
          GROUP BY e.session_id
          ORDER BY MAX(e.occurred_at) DESC, e.session_id
          LIMIT ${where.value(limit)}`,
        where.params,
      );
      const aggregates = (await m.query(aggSql, aggParams)) as SessionAggregate[];
      const ids = sessionsToShow(aggregates, query.session_id);
      if (ids.length === 0) return { project_id: projectId, sessions: [] };

      const sessions = new Map((await m.find(Session, { where: { id: In(ids) } })).map((s) => [s.id, s]));
      const inIds = new Where(dialect).filter({ projectId, ...range });
      inIds.add(`session_id IN (${ids.map((id) => inIds.value(id)).join(', ')})`);
      const [toolSql, toolParams] = bindParams(
        dialect,
        `SELECT session_id, tool, COUNT(*) AS calls, SUM(CASE WHEN outcome = 'error' THEN 1 ELSE 0 END) AS errors,
                SUM(COALESCE(duration_ms, 0)) AS total_ms
           FROM ai_log_events ${inIds.sql} AND kind = 'tool_call'
          GROUP BY session_id, tool ORDER BY session_id, COUNT(*) DESC, tool`,
        inIds.params,
      );
      const tools = (await m.query(toolSql, toolParams)) as SessionToolRow[];
      const [eventSql, eventParams] = bindParams(
        dialect,
        `SELECT ${EVENT_COLUMNS} FROM (
           SELECT ${EVENT_COLUMNS}, ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY occurred_at DESC, seq DESC) AS rn
             FROM ai_log_events ${inIds.sql}) latest
          WHERE rn <= ${EVENTS_PER_SESSION} ORDER BY occurred_at, seq`,
        inIds.params,
      );
      const events = (await m.query(eventSql, eventParams)) as AiLogEventRow[];

      return { project_id: projectId, sessions: assembleSessionTimeline({ ids, sessions, aggregates, tools, events }) };
    });
  }
}

/** A created marker for every milestone, and a completed one for those done. */
function milestoneMarkers(projectId: string, items: SprintItem[]): MilestoneMarkerView[] {
  const marker = (item: SprintItem, which: 'created' | 'completed', at: Date): MilestoneMarkerView => ({
    seq: 0,
    id: `milestone:${item.id}:${which}`,
    kind: 'milestone',
    occurred_at: at.toISOString(),
    project_id: projectId,
    session_id: null,
    tool: null,
    outcome: null,
    error_code: null,
    duration_ms: null,
    summary: `Milestone ${which}: ${item.title}`,
    data: { item_id: item.id, marker: which, title: item.title, status: item.status },
  });
  return items.flatMap((item) => [marker(item, 'created', item.added_at), ...(item.status === 'done' && item.completed_at ? [marker(item, 'completed', item.completed_at)] : [])]);
}

/** The same window and keyset position the events query applies (a marker's seq is 0). */
function inWindow(marker: MilestoneMarkerView, range: { since?: Date; until?: Date }, cursor?: Cursor): boolean {
  const at = new Date(marker.occurred_at).getTime();
  if (range.since && at < range.since.getTime()) return false;
  if (range.until && at >= range.until.getTime()) return false;
  if (cursor && !(at < cursor.at.getTime() || (at === cursor.at.getTime() && 0 < cursor.seq))) return false;
  return true;
}

function newestFirst(a: TimelineEntryView, b: TimelineEntryView): number {
  return b.occurred_at.localeCompare(a.occurred_at) || b.seq - a.seq || a.id.localeCompare(b.id);
}
