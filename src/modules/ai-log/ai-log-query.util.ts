import { Dialect, sqlTimestamp } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { AiLogEventKind } from './ai-log-event.entity';

/** Filters shared by the timeline, the JSON-lines export and the session timeline. */
export interface EventFilter {
  projectId?: string | null;
  sessionId?: string;
  kind?: AiLogEventKind;
  since?: Date;
  until?: Date;
}

/** A WHERE clause written with Postgres placeholders, and its parameters. */
export class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];

  constructor(private readonly dialect: Dialect) {}

  /** Adds a condition written with placeholders from `value`/`time`. */
  add(condition: string): this {
    this.parts.push(condition);
    return this;
  }

  value(value: unknown): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }

  time(date: Date): string {
    return this.value(sqlTimestamp(this.dialect, date));
  }

  get sql(): string {
    return this.parts.length ? `WHERE ${this.parts.join(' AND ')}` : '';
  }

  /** The filters every AI-log read understands; `alias` prefixes column names. */
  filter(f: EventFilter, alias = ''): this {
    const c = (name: string) => `${alias}${name}`;
    if (f.projectId === null) this.parts.push(`${c('project_id')} IS NULL`);
    else if (f.projectId) this.parts.push(`${c('project_id')} = ${this.value(f.projectId)}`);
    if (f.sessionId) this.parts.push(`${c('session_id')} = ${this.value(f.sessionId)}`);
    if (f.kind) this.parts.push(`${c('kind')} = ${this.value(f.kind)}`);
    if (f.since) this.parts.push(`${c('occurred_at')} >= ${this.time(f.since)}`);
    if (f.until) this.parts.push(`${c('occurred_at')} < ${this.time(f.until)}`);
    return this;
  }

  /** Keyset position after (ascending) or before (descending) the cursor's event. */
  after(cursor: Cursor, direction: 'asc' | 'desc', alias = ''): this {
    const op = direction === 'asc' ? '>' : '<';
    const t = this.time(cursor.at);
    const s = this.value(cursor.seq);
    this.parts.push(`(${alias}occurred_at ${op} ${t} OR (${alias}occurred_at = ${t} AND ${alias}seq ${op} ${s}))`);
    return this;
  }
}

export interface Cursor {
  at: Date;
  seq: number;
}

/** An opaque position in a listing: the time and seq of the last event given (0 for a timeline's milestone marker). */
export function encodeCursor(cursor: { occurred_at: string; seq: number }): string {
  return Buffer.from(JSON.stringify([cursor.occurred_at, cursor.seq])).toString('base64url');
}

export function decodeCursor(raw: string): Cursor {
  try {
    const [at, seq] = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as [unknown, unknown];
    const date = new Date(String(at));
    if (typeof at === 'string' && !Number.isNaN(date.getTime()) && Number.isSafeInteger(seq) && (seq as number) >= 0) {
      return { at: date, seq: seq as number };
    }
  } catch {
    // reported below
  }
  throw RequestError.invalidInput('cursor is not a cursor this listing gave');
}

/** An ISO 8601 time of the input, or a 400 naming the field. */
export function parseTime(field: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw RequestError.invalidInput(`${field} must be an ISO 8601 date-time`);
  return date;
}

/** since/until of the input, checked to form a range (since inclusive, until exclusive). */
export function parseRange(input: { since?: string; until?: string }): { since?: Date; until?: Date } {
  const since = parseTime('since', input.since);
  const until = parseTime('until', input.until);
  if (since && until && until.getTime() <= since.getTime()) throw RequestError.invalidInput('until must be later than since');
  return { since, until };
}
