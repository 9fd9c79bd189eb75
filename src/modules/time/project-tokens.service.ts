import { Injectable } from '@nestjs/common';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { bindParams, currentTenant, fromSqlTimestamp, requestIsReadOnly, sqlTimestamp, TenantDb } from '../../../libs/tenancy';
import { PROJECT_TOKEN_PREFIXES, ProjectTokenKind } from '../../common/auth/project-token.decorator';
import { Clock } from '../../common/clock';
import { requireProject } from '../projects/require-project.util';
import { TenantError } from '../tenants/tenants.errors';

/** A token as shown once to whoever asked for it. */
export interface IssuedToken {
  project_id: string;
  kind: ProjectTokenKind;
  token: string;
  created_at: string;
  expires_at: string | null;
}

/** A rewind token also says the moment it shows and carries the link to share. */
export interface IssuedRewindToken extends IssuedToken {
  at: string;
  url: string;
}

/**
 * Per-project tokens: the webhook token (POST .../events without workspace credentials) and
 * rewind tokens (a read-only GET .../rewind to share). Only the SHA-256 of a token is stored; the
 * token itself is shown once. A token carries its workspace's id, so a request that presents
 * nothing else can be taken to the right tenant before the hash is looked up there.
 */
@Injectable()
export class ProjectTokensService {
  constructor(
    private readonly db: TenantDb,
    private readonly clock: Clock,
  ) {}

  /** A new token of `kind` for the project; a webhook token replaces the project's previous one. */
  async issue(projectId: string, kind: ProjectTokenKind, ttlSeconds?: number, pinnedAt?: Date): Promise<IssuedToken> {
    // GET .../webhook-token mints a credential that writes: a read-scope API token may not.
    if (requestIsReadOnly()) throw TenantError.readOnlyToken(`a ${kind} token`);
    const tenantHex = currentTenant().tenantId.replace(/-/g, '');
    const token = `${PROJECT_TOKEN_PREFIXES[kind]}${tenantHex}_${randomBytes(24).toString('base64url')}`;
    const now = this.clock.now();
    const expires = ttlSeconds === undefined ? null : new Date(now.getTime() + ttlSeconds * 1000);
    const dialect = this.db.dialect;
    await this.db.transaction(async (m) => {
      await requireProject(m, projectId);
      if (kind === 'webhook') await m.query(...bindParams(dialect, "DELETE FROM project_tokens WHERE project_id = $1 AND kind = 'webhook'", [projectId]));
      await m.query(
        ...bindParams(dialect, 'INSERT INTO project_tokens (id, project_id, kind, token_hash, created_at, expires_at, pinned_at) VALUES ($1, $2, $3, $4, $5, $6, $7)', [
          randomUUID(),
          projectId,
          kind,
          hashToken(token),
          sqlTimestamp(dialect, now),
          expires ? sqlTimestamp(dialect, expires) : null,
          pinnedAt ? sqlTimestamp(dialect, pinnedAt) : null,
        ]),
      );
    });
    return { project_id: projectId, kind, token, created_at: now.toISOString(), expires_at: expires?.toISOString() ?? null };
  }

  /**
   * The live token `token` of `kind` for the project, in the current tenant, with the moment it
   * is pinned to (rewind tokens minted since moments were kept), or null when it is not one.
   */
  async verify(projectId: string, kind: ProjectTokenKind, token: string): Promise<{ pinnedAt: Date | null } | null> {
    const dialect = this.db.dialect;
    const rows: { pinned_at: Date | string | null }[] = await this.db.read((m) =>
      m.query(
        ...bindParams(dialect, 'SELECT pinned_at FROM project_tokens WHERE token_hash = $1 AND project_id = $2 AND kind = $3 AND (expires_at IS NULL OR expires_at > $4)', [
          hashToken(token),
          projectId,
          kind,
          sqlTimestamp(dialect, this.clock.now()),
        ]),
      ),
    );
    const row = rows[0];
    if (!row) return null;
    return { pinnedAt: row.pinned_at === null ? null : fromSqlTimestamp(row.pinned_at) };
  }
}

/** The workspace id a project token carries, as a UUID, or undefined when it is not shaped like one. */
export function tenantOfToken(token: string, kind: ProjectTokenKind): string | undefined {
  const hex = token.slice(PROJECT_TOKEN_PREFIXES[kind].length).split('_')[0];
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
