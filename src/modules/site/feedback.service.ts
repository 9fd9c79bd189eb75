import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { RequestError } from '../../common/errors/request-error';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { SendFeedbackDto } from './dto/send-feedback.dto';
import { isoTime, SiteDb } from './site-db';

export interface FeedbackEntry {
  id: string;
  message: string;
  email: string | null;
  page: string | null;
  created_at: string;
}

/** Feedback messages per client address per hour. */
export const FEEDBACK_LIMIT = { hits: 10, windowMs: 3_600_000 };

/** The feedback box: anyone may write, admins read it in the console. */
@Injectable()
export class Feedback {
  constructor(
    private readonly db: SiteDb,
    private readonly limiter: WindowLimiter,
  ) {}

  async send(input: SendFeedbackDto, client: string | undefined): Promise<{ id: string }> {
    const key = createHash('sha256')
      .update(client ?? 'unknown')
      .digest('hex')
      .slice(0, 32);
    const wait = await this.limiter.hit('feedback', key, FEEDBACK_LIMIT.hits, FEEDBACK_LIMIT.windowMs);
    if (wait) throw RequestError.rateLimited(`too much feedback from this address; retry in ${wait} s`, wait);
    const id = randomUUID();
    await this.db.query('INSERT INTO {site_feedback} (id, message, email, page, created_at) VALUES (?, ?, ?, ?, ?)', [
      id,
      input.message,
      input.email ?? null,
      input.page ?? null,
      new Date(),
    ]);
    return { id };
  }

  async recent(limit = 50): Promise<FeedbackEntry[]> {
    const rows = await this.db.query<FeedbackEntry & { created_at: Date | string }>(
      'SELECT id, message, email, page, created_at FROM {site_feedback} ORDER BY created_at DESC LIMIT ?',
      [limit],
    );
    return rows.map((r) => ({ ...r, created_at: isoTime(r.created_at)! }));
  }
}
