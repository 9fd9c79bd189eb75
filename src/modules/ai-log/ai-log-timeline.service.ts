import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { bindParams, fromSqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { requireProject } from '../projects/require-project.util';
import { Session } from '../sessions/session.entity';
import { AiLogRecorder } from './ai-log-recorder.service';
import { AiLogEventRow, AiLogEventView, EVENT_COLUMNS, toEventView } from './ai-log-event.view';
import { decodeCursor, encodeCursor, parseRange, Where } from './ai-log-query.util';
import { AiLogError } from './ai-log.errors';
import { SessionTimelineQueryDto } from './dto/session-timeline-query.dto';
import { TimelineQueryDto } from './dto/timeline-query.dto';

export interface TimelinePage {
  project_id: string;
  events: AiLogEventView[];
  /** Pass as `cursor` to get the next (older) page; null on the last page. */
  next_cursor: string | null;
}

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

const DEFAULT_PAGE = 100;
const DEFAULT_SESSIONS = 20;
export const EVENTS_PER_SESSION = 100;

interface SessionAggregate {
  session_id: string;
  event_count: number | string;
  tool_calls: number | string;
  errors: number | string;
  handoff_corrections: number | string;
  first_event_at: Date | string | null;
  last_event_at: Date | string | null;
}

/** The project timelines: a flat list of events, and the same activity grouped by session. */
@Injectable()
export class AiLogTimelineService {
  constructor(
    private readonly db: TenantDb,
    private readonly recorder: AiLogRecorder,
  ) {}

  /** The project's events, newest first, one page at a time. */
  async timeline(projectId: string, query: TimelineQueryDto): Promise<TimelinePage> {
    const range = parseRange(query);
    const cursor = query.cursor ? decodeCursor(query.cursor) : undefined;
    const limit = query.limit ?? DEFAULT_PAGE;
    await this.recorder.flush();
    const rows = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const where = new Where(this.db.dialect).filter({ projectId, sessionId: query.session_id, kind: query.kind, ...range });
      if (cursor) where.after(cursor, 'desc');
      const [sql, params] = bindParams(
        this.db.dialect,
        `SELECT ${EVENT_COLUMNS} FROM ai_log_events ${where.sql} ORDER BY occurred_at DESC, seq DESC LIMIT ${where.value(limit + 1)}`,
        where.params,
      );
      return (await m.query(sql, params)) as AiLogEventRow[];
    });
    const events = rows.slice(0, limit).map(toEventView);
    const last = events[events.length - 1];
    return { project_id: projectId, events, next_cursor: rows.length > limit && last ? encodeCursor(last) : null };
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
      const ids = aggregates.map((a) => a.session_id);
      if (query.session_id && ids.length === 0) ids.push(query.session_id);
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
      const toolRows = (await m.query(toolSql, toolParams)) as { session_id: string; tool: string; calls: number | string; errors: number | string; total_ms: number | string }[];
      const [eventSql, eventParams] = bindParams(
        dialect,
        `SELECT ${EVENT_COLUMNS} FROM (
           SELECT ${EVENT_COLUMNS}, ROW_NUMBER() OVER (PARTITION BY session_id ORDER BY occurred_at DESC, seq DESC) AS rn
             FROM ai_log_events ${inIds.sql}) latest
          WHERE rn <= ${EVENTS_PER_SESSION} ORDER BY occurred_at, seq`,
        inIds.params,
      );
      const eventRows = (await m.query(eventSql, eventParams)) as AiLogEventRow[];

      const byId = new Map(aggregates.map((a) => [a.session_id, a]));
      return {
        project_id: projectId,
        sessions: ids.map((id) => {
          const session = sessions.get(id);
          const agg = byId.get(id);
          const events = eventRows.filter((r) => r.session_id === id).map(toEventView);
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
            tools: toolRows
              .filter((t) => t.session_id === id)
              .map((t) => ({ tool: t.tool, calls: Number(t.calls), errors: Number(t.errors), total_duration_ms: Math.round(Number(t.total_ms) * 1000) / 1000 })),
            events,
            events_truncated: count > events.length,
          };
        }),
      };
    });
  }
}
