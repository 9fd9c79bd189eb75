import { Injectable } from '@nestjs/common';
import { createHash, randomUUID } from 'node:crypto';
import { RequestError } from '../../common/errors/request-error';
import { WindowLimiter } from '../../common/rate-limit/window-limiter';
import { JoinWaitlistDto } from './dto/join-waitlist.dto';
import { SiteError } from './site.errors';
import { isoTime, SiteDb } from './site-db';

export interface WaitlistEntry {
  id: string;
  email: string;
  note: string;
  created_at: string;
}

/** Sign-ups per client address per hour: enough for a household, not for a script. */
export const WAITLIST_LIMIT = { hits: 5, windowMs: 3_600_000 };

/** The waitlist: one entry per address (the first note is kept), read and pruned by admins. */
@Injectable()
export class Waitlist {
  constructor(
    private readonly db: SiteDb,
    private readonly limiter: WindowLimiter,
  ) {}

  /** POST /waitlist: `created` false when the address was already on the list (nothing changes then). */
  async join(input: JoinWaitlistDto, client: string | undefined): Promise<{ created: boolean; email: string }> {
    const wait = await this.limiter.hit('waitlist', hashOf(client ?? 'unknown'), WAITLIST_LIMIT.hits, WAITLIST_LIMIT.windowMs);
    if (wait) throw RequestError.rateLimited(`too many waitlist sign-ups from this address; retry in ${wait} s`, wait);
    const rows = await this.db.query('INSERT INTO {site_waitlist} (id, email, note, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (email) DO NOTHING RETURNING id', [
      randomUUID(),
      input.email,
      input.note ?? '',
      new Date(),
    ]);
    return { created: rows.length === 1, email: input.email };
  }

  async size(): Promise<number> {
    const [row] = await this.db.query<{ n: string | number }>('SELECT count(*) AS n FROM {site_waitlist}');
    return Number(row.n);
  }

  async list(): Promise<WaitlistEntry[]> {
    const rows = await this.db.query<WaitlistEntry & { created_at: Date | string }>('SELECT id, email, note, created_at FROM {site_waitlist} ORDER BY created_at DESC, email');
    return rows.map((r) => ({ ...r, created_at: isoTime(r.created_at)! }));
  }

  /** Removes one entry; answers its address for the audit trail. */
  async remove(id: string): Promise<string> {
    const [row] = await this.db.query<{ email: string }>('DELETE FROM {site_waitlist} WHERE id = ? RETURNING email', [id]);
    if (!row) throw SiteError.notFound('waitlist entry', id);
    return row.email;
  }
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32);
}
