import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { EntityManager, MoreThan } from 'typeorm';
import { bindParams, currentTenant, fromSqlTimestamp, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { Clock } from '../../common/clock';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ProjectSettingsService } from '../project-settings/project-settings.service';
import { requireProject } from '../projects/require-project.util';
import { ClaimFileDto } from './dto/claim-file.dto';
import { ReleaseFileDto } from './dto/release-file.dto';
import { FileLock } from './file-lock.entity';
import { ForcedRelease, LockView } from './file-lock.view';
import { normalizeFilePath } from './file-path.util';
import { Session } from './session.entity';
import { SessionCloseHooks } from './session-close-hooks';
import { SessionHandovers } from './session-handovers';
import { NewNotice, SessionNotices } from './session-notices.service';
import { LockHolder, SessionError } from './sessions.errors';

export type { ForcedRelease, LockView } from './file-lock.view';

/** Locks lapsed by $1 whose session is still live (a closed session's locks went with it). */
const LAPSED_SQL = `SELECT l.id, l.project_id, l.session_id, l.file_path, l.expires_at FROM file_locks l JOIN sessions s ON s.id = l.session_id
  WHERE l.expires_at <= $1 AND s.status = 'active' AND s.kind <> 'handoff'`;

export interface ClaimResult {
  claimed: true;
  file_path: string;
  session_id: string;
  claimed_at: string;
  expires_at: string;
}

interface LockRow {
  file_path: string;
  session_id: string;
  session_name: string;
  session_last_seen: Date | string;
  claimed_at: Date | string;
  expires_at: Date | string;
}

/**
 * Advisory file locks (spec §1, "Parallel sessions and file locks"). A lock is
 * keyed by project and path, lasts until its TTL runs out, is renewed by
 * claiming again, and ends with its session. A claim is one conditional upsert,
 * so two sessions racing for a file, on any number of instances sharing the
 * database, cannot both win.
 */
@Injectable()
export class FileLocksService implements OnModuleInit {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
    private readonly closeHooks: SessionCloseHooks,
    private readonly handovers: SessionHandovers,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: ProjectSettingsService,
    private readonly events: RealtimeEvents,
    private readonly notices: SessionNotices,
  ) {}

  onModuleInit() {
    this.closeHooks.register('file-locks', async (m, session) => {
      await m.delete(FileLock, { session_id: session.id });
    });
    // Locks still live move; each is held until the handover says (a handoff's expiry, or a fresh TTL).
    this.handovers.register('file_locks', {
      move: async (m, from, to, { locksUntil }) => {
        const result = await m.update(FileLock, { session_id: from.id, expires_at: MoreThan(this.clock.now()) }, { session_id: to.id, expires_at: locksUntil });
        return result.affected ?? 0;
      },
      count: (m, sessionId) => m.countBy(FileLock, { session_id: sessionId, expires_at: MoreThan(this.clock.now()) }),
    });
  }

  async claim(input: ClaimFileDto): Promise<ClaimResult> {
    const now = this.clock.now();
    const expires = new Date(now.getTime() + (input.ttl_seconds ?? this.config.fileLockTtlS) * 1000);
    const dialect = this.db.dialect;
    const result = await this.db.transaction(async (m) => {
      const session = await this.requireLiveSession(m, input.session_id);
      const path = normalizeFilePath(input.file_path, await this.settings.pathRules(m, session.project_id));
      // Taken when free, expired, ours (renewal), held by a closed session, or forced.
      const takeover = input.force
        ? ''
        : `WHERE file_locks.session_id = excluded.session_id OR file_locks.expires_at <= $5
             OR NOT EXISTS (SELECT 1 FROM sessions s WHERE s.id = file_locks.session_id AND s.status = 'active')`;
      const [sql, params] = bindParams(
        dialect,
        `INSERT INTO file_locks (id, project_id, session_id, file_path, claimed_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (project_id, file_path) DO UPDATE SET
           claimed_at = CASE WHEN file_locks.session_id = excluded.session_id AND file_locks.expires_at > $5
                             THEN file_locks.claimed_at ELSE excluded.claimed_at END,
           session_id = excluded.session_id,
           expires_at = excluded.expires_at
         ${takeover}
         RETURNING claimed_at, expires_at`,
        [randomUUID(), session.project_id, session.id, path, sqlTimestamp(dialect, now), sqlTimestamp(dialect, expires)],
      );
      // Claiming is activity: it keeps the session from being swept.
      await m.update(Session, { id: session.id }, { last_seen: now });
      // Whoever held the file before: told once this claim took it (lapsed, or taken by force).
      const before = await m.findOneBy(FileLock, { project_id: session.project_id, file_path: path });
      for (let attempt = 0; ; attempt++) {
        const rows: { claimed_at: Date | string; expires_at: Date | string }[] = await m.query(sql, params);
        if (rows.length > 0) {
          const lost: NewNotice[] =
            before && before.session_id !== session.id
              ? [
                  {
                    projectId: session.project_id,
                    sessionId: before.session_id,
                    kind: new Date(before.expires_at) <= now ? 'lock_expired' : 'lock_taken',
                    filePath: path,
                    takenById: session.id,
                    at: now,
                  },
                ]
              : [];
          return { claim: claimed(path, session.id, rows[0]), session, told: await this.notices.record(m, lost) };
        }
        const holder = (await this.locksOf(m, session.project_id, now, path))[0];
        // The holder let go between the two statements: try once more.
        if (holder || attempt > 0) throw SessionError.fileLocked(path, holder ? toHolder(holder) : unknownHolder(expires));
      }
    });
    const { claim, session, told } = result;
    await this.notices.announce(told);
    const lock: LockView = {
      file_path: claim.file_path,
      session_id: session.id,
      session_name: session.name,
      session_last_seen: now.toISOString(),
      claimed_at: claim.claimed_at,
      expires_at: claim.expires_at,
    };
    this.publish('file_lock_claimed', { project_id: session.project_id, lock });
    return claim;
  }
  /** Releases a lock the session holds; `released: false` when it held none. */
  async release(input: ReleaseFileDto): Promise<{ released: boolean; file_path: string }> {
    const { released, path, session } = await this.db.transaction(async (m) => {
      const session = await m.findOneBy(Session, { id: input.session_id });
      if (!session) throw SessionError.notFound(input.session_id);
      const path = normalizeFilePath(input.file_path, await this.settings.pathRules(m, session.project_id));
      const result = await m.delete(FileLock, { project_id: session.project_id, file_path: path, session_id: session.id });
      return { released: Boolean(result.affected), path, session };
    });
    if (released) this.publish('file_lock_released', { project_id: session.project_id, file_path: path, session_id: session.id, forced: false });
    return { released, file_path: path };
  }

  /** Frees a file whatever live session holds it (a person's decision, from the dashboard); 404 when no live lock is on it. */
  async forceRelease(projectId: string, filePath: string): Promise<ForcedRelease> {
    const released = await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      const path = normalizeFilePath(filePath, await this.settings.pathRules(m, projectId));
      const holder = (await this.locksOf(m, projectId, this.clock.now(), path))[0];
      if (!holder) throw SessionError.noLiveLock(path);
      await m.delete(FileLock, { project_id: projectId, file_path: path, session_id: holder.session_id });
      const told = await this.notices.record(m, [{ projectId, sessionId: holder.session_id, kind: 'lock_taken', filePath: path, takenById: null, at: this.clock.now() }]);
      return { released: true as const, file_path: path, session_id: holder.session_id, told };
    });
    await this.notices.announce(released.told);
    this.publish('file_lock_released', { project_id: projectId, file_path: released.file_path, session_id: released.session_id, forced: true });
    return { released: true, file_path: released.file_path, session_id: released.session_id };
  }

  /**
   * The sweeper's part: the current tenant's locks that lapsed while their session is still
   * live are removed, and each holder is told (lock_expired) once. A lapsed lock already gave
   * the file up; removing it keeps the notice from being given twice.
   */
  async sweepLapsed(): Promise<number> {
    const now = this.clock.now();
    const dialect = this.db.dialect;
    // Most tenants have no lapsed lock at one sweep: a read says so without a transaction's connection.
    const [anySql, anyParams] = bindParams(dialect, `${LAPSED_SQL} LIMIT 1`, [sqlTimestamp(dialect, now)]);
    const any: unknown[] = await this.db.read((m) => m.query(anySql, anyParams));
    if (any.length === 0) return 0;
    const told = await this.db.transaction(async (m) => {
      const [sql, params] = bindParams(dialect, `${LAPSED_SQL} ORDER BY l.expires_at LIMIT 500`, [sqlTimestamp(dialect, now)]);
      const lapsed: { id: string; project_id: string; session_id: string; file_path: string; expires_at: Date | string }[] = await m.query(sql, params);
      if (lapsed.length === 0) return [];
      // Conditional on still being lapsed: a renewal that landed meanwhile keeps its lock, untold.
      const gone: typeof lapsed = [];
      for (const l of lapsed) {
        const [dsql, dparams] = bindParams(dialect, 'DELETE FROM file_locks WHERE id = $1 AND expires_at <= $2 RETURNING id', [l.id, sqlTimestamp(dialect, now)]);
        const result: unknown = await m.query(dsql, dparams);
        const rows = (Array.isArray(result) && Array.isArray(result[0]) ? result[0] : result) as unknown[];
        if (rows.length > 0) gone.push(l);
      }
      return this.notices.record(
        m,
        gone.map((l) => ({
          projectId: l.project_id,
          sessionId: l.session_id,
          kind: 'lock_expired' as const,
          filePath: l.file_path,
          takenById: null,
          at: fromSqlTimestamp(l.expires_at),
        })),
      );
    });
    await this.notices.announce(told);
    return told.length;
  }

  private publish(event: 'file_lock_claimed' | 'file_lock_released', data: Record<string, unknown>) {
    this.events.publish({ tenantId: currentTenant().tenantId, event, data });
  }

  /** Live locks of a project: unexpired and held by an active session. */
  async list(projectId: string): Promise<LockView[]> {
    return this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      return (await this.locksOf(m, projectId, this.clock.now())).map(toView);
    });
  }

  /** Live locks of a project inside a caller's transaction (the sprint claim gate names the holder with these). */
  async liveLocks(m: EntityManager, projectId: string): Promise<LockView[]> {
    return (await this.locksOf(m, projectId, this.clock.now())).map(toView);
  }

  /**
   * What `start_session` tells a new session: one line per file locked by
   * another live session, naming the file, the holder and its last_seen.
   */
  async warningsFor(m: EntityManager, projectId: string, exceptSessionId?: string): Promise<string[]> {
    const locks = await this.locksOf(m, projectId, this.clock.now());
    return locks
      .filter((l) => l.session_id !== exceptSessionId)
      .map((l) => {
        const v = toView(l);
        return `${v.file_path} is locked by session ${v.session_name} (${v.session_id}), last seen ${v.session_last_seen}`;
      });
  }

  private async locksOf(m: EntityManager, projectId: string, now: Date, path?: string): Promise<LockRow[]> {
    const dialect = this.db.dialect;
    const [sql, params] = bindParams(
      dialect,
      `SELECT l.file_path, l.session_id, s.name AS session_name, s.last_seen AS session_last_seen, l.claimed_at, l.expires_at
         FROM file_locks l JOIN sessions s ON s.id = l.session_id
        WHERE l.project_id = $1 AND l.expires_at > $2 AND s.status = 'active' ${path ? 'AND l.file_path = $3' : ''}
        ORDER BY l.file_path`,
      path ? [projectId, sqlTimestamp(dialect, now), path] : [projectId, sqlTimestamp(dialect, now)],
    );
    return m.query(sql, params);
  }

  private async requireLiveSession(m: EntityManager, id: string): Promise<Session> {
    const session = await m.findOneBy(Session, { id });
    if (!session) throw SessionError.notFound(id);
    if (session.status !== 'active') throw SessionError.closed(id);
    return session;
  }
}

function claimed(path: string, sessionId: string, row: { claimed_at: Date | string; expires_at: Date | string }): ClaimResult {
  return {
    claimed: true,
    file_path: path,
    session_id: sessionId,
    claimed_at: fromSqlTimestamp(row.claimed_at).toISOString(),
    expires_at: fromSqlTimestamp(row.expires_at).toISOString(),
  };
}

function unknownHolder(until: Date): LockHolder {
  const at = until.toISOString();
  return { holder_session_id: 'unknown', holder_name: 'unknown', holder_last_seen: at, claimed_at: at, expires_at: at };
}

function toView(row: LockRow): LockView {
  return {
    file_path: row.file_path,
    session_id: row.session_id,
    session_name: row.session_name,
    session_last_seen: fromSqlTimestamp(row.session_last_seen).toISOString(),
    claimed_at: fromSqlTimestamp(row.claimed_at).toISOString(),
    expires_at: fromSqlTimestamp(row.expires_at).toISOString(),
  };
}

function toHolder(row: LockRow): LockHolder {
  const v = toView(row);
  return {
    holder_session_id: v.session_id,
    holder_name: v.session_name,
    holder_last_seen: v.session_last_seen,
    claimed_at: v.claimed_at,
    expires_at: v.expires_at,
  };
}
