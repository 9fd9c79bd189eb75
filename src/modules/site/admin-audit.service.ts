import { Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { AdminIdentity } from '../../common/auth/admin-identity.service';
import { randomUUID } from 'node:crypto';
import { isoTime, SiteDb } from './site-db';

export interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target: string | null;
  at: string;
}

/** Who did what from the admin routes, and when: written by every admin action, read by the console. */
@Injectable()
export class AdminAudit {
  constructor(
    private readonly db: SiteDb,
    private readonly identity: AdminIdentity,
  ) {}

  /** Records an action of the admin behind `req` (an address, or "admin password"). */
  async recordFor(req: Request, action: string, target: string | null = null): Promise<void> {
    const standing = await this.identity.standing(req);
    const actor = standing.kind === 'admin' ? (standing.email ?? 'admin password') : 'unknown';
    await this.record(actor, action, target);
  }

  async record(actor: string, action: string, target: string | null = null): Promise<void> {
    await this.db.query('INSERT INTO {admin_audit} (id, actor, action, target, at) VALUES (?, ?, ?, ?, ?)', [randomUUID(), actor, action, target, new Date()]);
  }

  async recent(limit = 50): Promise<AuditEntry[]> {
    const rows = await this.db.query<AuditEntry & { at: Date | string }>('SELECT id, actor, action, target, at FROM {admin_audit} ORDER BY at DESC LIMIT ?', [limit]);
    return rows.map((r) => ({ ...r, at: isoTime(r.at)! }));
  }
}
