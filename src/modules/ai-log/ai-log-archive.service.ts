import { Injectable } from '@nestjs/common';
import { bindParams, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RequestError } from '../../common/errors/request-error';
import { requireProject } from '../projects/require-project.util';
import { AiLogEvent } from './ai-log-event.entity';
import { AiLogEventRow, EVENT_COLUMNS, toEventView } from './ai-log-event.view';
import { AiLogRecorder } from './ai-log-recorder.service';
import { decodeCursor, encodeCursor, parseRange, parseTime, Where } from './ai-log-query.util';
import { ExportAiLogDto } from './dto/export-ai-log.dto';
import { PurgeAiLogDto } from './dto/purge-ai-log.dto';

export interface JsonLinesExport {
  format: 'jsonl';
  /** Lines in `jsonl`. */
  count: number;
  /** One event per line, oldest first, each line a JSON object (the timeline's event shape). */
  jsonl: string;
  /** True when the range holds more events than `limit`: call again with `cursor: next_cursor`. */
  truncated: boolean;
  next_cursor: string | null;
}

const DEFAULT_LINES = 1000;

/** Taking the log out (JSON lines) and removing old parts of it. */
@Injectable()
export class AiLogArchiveService {
  constructor(
    private readonly db: TenantDb,
    private readonly recorder: AiLogRecorder,
    private readonly clock: Clock,
  ) {}

  /** The events of a time range as JSON lines, oldest first; a project's, or the whole workspace's. */
  async exportJsonLines(input: ExportAiLogDto): Promise<JsonLinesExport> {
    const range = parseRange(input);
    const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
    const limit = input.limit ?? DEFAULT_LINES;
    await this.recorder.flush();
    const rows = await this.db.transaction(async (m) => {
      if (input.project_id) await requireProject(m, input.project_id);
      const where = new Where(this.db.dialect).filter({ projectId: input.project_id, sessionId: input.session_id, kind: input.kind, ...range });
      if (cursor) where.after(cursor, 'asc');
      const [sql, params] = bindParams(
        this.db.dialect,
        `SELECT ${EVENT_COLUMNS} FROM ai_log_events ${where.sql} ORDER BY occurred_at, seq LIMIT ${where.value(limit + 1)}`,
        where.params,
      );
      return (await m.query(sql, params)) as AiLogEventRow[];
    });
    const events = rows.slice(0, limit).map(toEventView);
    const truncated = rows.length > limit;
    const last = events[events.length - 1];
    return {
      format: 'jsonl',
      count: events.length,
      jsonl: events.map((e) => `${JSON.stringify(e)}\n`).join(''),
      truncated,
      next_cursor: truncated && last ? encodeCursor(last) : null,
    };
  }

  /** Removes the events that occurred before `before`; answers how many were removed. */
  async purge(input: PurgeAiLogDto): Promise<{ removed: number; before: string; project_id: string | null }> {
    const before = parseTime('before', input.before) as Date;
    if (before.getTime() > this.clock.now().getTime()) throw RequestError.invalidInput('before must not be in the future');
    await this.recorder.flush();
    const dialect = this.db.dialect;
    const removed = await this.db.transaction(async (m) => {
      if (input.project_id) await requireProject(m, input.project_id);
      const query = m
        .createQueryBuilder()
        .delete()
        .from(AiLogEvent)
        .where('occurred_at < :before', { before: sqlTimestamp(dialect, before) });
      if (input.project_id) query.andWhere('project_id = :project', { project: input.project_id });
      const result = await query.execute();
      return result.affected ?? 0;
    });
    return { removed, before: before.toISOString(), project_id: input.project_id ?? null };
  }
}
