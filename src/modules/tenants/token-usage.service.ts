import { BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ThrottledLog } from '../../common/logging/throttled-log';
import { SHARED_DATA_SOURCE } from '../../database/database.module';

/** A token's last_used_at moves at most once per this interval. */
export const LAST_USED_PRECISION_MS = 60_000;
/** Uses noted within this time leave together in one statement. */
const FLUSH_DELAY_MS = 1000;

/**
 * Keeps `api_tokens.last_used_at` without a write per request: a use is noted
 * in memory, and only when this instance has not written that token's time in
 * the last minute. Noted uses leave within a second, all of them in one
 * UPDATE, off the request's path; the UPDATE itself changes a row only when
 * its time is a minute old, so several instances sharing a busy token write it
 * about once a minute between them. A failed write is logged (throttled) and
 * dropped: the time is a hint for people, never a reason to refuse a request.
 */
@Injectable()
export class TokenUsage implements BeforeApplicationShutdown {
  private readonly log = new ThrottledLog(new Logger('auth'), 60_000);
  /** Token id -> when this instance last sent its time. */
  private readonly written = new Map<string, number>();
  private readonly pending = new Map<string, Date>();
  private timer?: NodeJS.Timeout;
  private flushing?: Promise<void>;

  constructor(@Inject(SHARED_DATA_SOURCE) private readonly source: DataSource) {}

  /** Notes that a token was used now. Costs a map lookup when its time was written lately. */
  touch(tokenId: string): void {
    const now = Date.now();
    const last = this.written.get(tokenId);
    if (last !== undefined && now - last < LAST_USED_PRECISION_MS) return;
    if (this.written.size >= 100_000) this.written.clear();
    this.written.set(tokenId, now);
    this.pending.set(tokenId, new Date(now));
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes what is pending now (tests and shutdown). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.flushing;
    if (this.pending.size === 0) return;
    const ids = [...this.pending.keys()];
    const times = [...this.pending.values()];
    this.pending.clear();
    this.flushing = this.source
      .query(
        `UPDATE control.api_tokens k SET last_used_at = u.at
           FROM unnest($1::uuid[], $2::timestamptz[]) AS u(id, at)
          WHERE k.id = u.id AND (k.last_used_at IS NULL OR k.last_used_at <= u.at - make_interval(secs => $3))`,
        [ids, times, LAST_USED_PRECISION_MS / 1000],
      )
      .then(
        () => undefined,
        (error: Error) => this.log.warn('token last-used times not written', { tokens: ids.length, reason: error.message }),
      );
    await this.flushing;
  }

  /** Before the pools close, so the last minute's uses are kept. */
  async beforeApplicationShutdown() {
    await this.flush();
  }
}
