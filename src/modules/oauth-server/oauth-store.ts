import type { Adapter, AdapterPayload } from 'oidc-provider' with { 'resolution-mode': 'import' };
import { DataSource } from 'typeorm';
import { SecretBox } from '../../../libs/tenancy';
import { hashApiToken } from '../tenants/api-token.util';
import { parseSubject } from './oauth-subject.util';

interface PayloadRow {
  payload_sealed: string;
  consumed_at: Date | null;
}

/** Rows this long past their expiry are deleted by the sweep; until then a late poll still learns "expired". */
const KEEP_EXPIRED_MS = 24 * 3600 * 1000;

/** What a device code poll found: polled in time, polled too soon after the last one, or no such code. */
export type PollOutcome = 'in-time' | 'too-soon' | 'unknown';

/**
 * The authorization server's storage, in the control plane (`control.oauth_payloads`). Every
 * record is keyed by its kind and the SHA-256 of its id, and so are the lookups by grant id,
 * session uid and user code; payloads are sealed (SecretBox). A dump therefore holds no token,
 * code or id a client could present, and nothing of what they carry in clear. An access token's
 * workspace and audience are kept beside it in clear so that the tenant guard finds them with
 * one query (`TenantResolver`). A device code's poll clock starts when it is issued: a client
 * polls first after the interval, like every time after. `forget` hears of every access token that goes away (revoked,
 * its grant revoked), so the guard's cache of this process drops it at once.
 */
export class OAuthStore {
  constructor(
    private readonly source: DataSource,
    private readonly box: SecretBox,
    private readonly forget: (tokenHash: string) => void,
  ) {}

  /** The adapter oidc-provider uses for one kind of record. */
  adapterFor(model: string): Adapter {
    return {
      upsert: (id, payload, expiresIn) => this.upsert(model, id, payload, expiresIn),
      find: (id) => this.findBy(model, 'id_hash', id),
      findByUid: (uid) => this.findBy(model, 'uid_hash', uid),
      findByUserCode: (userCode) => this.findBy(model, 'user_code_hash', userCode),
      consume: (id) => this.consume(model, id),
      destroy: (id) => this.remove(model, 'id_hash', id),
      revokeByGrantId: (grantId) => this.remove(model, 'grant_id_hash', grantId),
    };
  }

  /**
   * Marks a device code polled now unless it was polled less than `intervalS` ago. One
   * conditional update, so two instances polled at once cannot both say "in time".
   */
  async pollDeviceCode(deviceCode: string, intervalS: number): Promise<PollOutcome> {
    const hash = hashApiToken(deviceCode);
    const updated: unknown[] = await this.source.query(
      `WITH polled AS (UPDATE control.oauth_payloads SET polled_at = now()
        WHERE model = 'DeviceCode' AND id_hash = $1 AND (polled_at IS NULL OR polled_at <= now() - make_interval(secs => $2))
        RETURNING 1) SELECT * FROM polled`,
      [hash, intervalS],
    );
    if (updated.length > 0) return 'in-time';
    const found: unknown[] = await this.source.query(`SELECT 1 FROM control.oauth_payloads WHERE model = 'DeviceCode' AND id_hash = $1`, [hash]);
    return found.length > 0 ? 'too-soon' : 'unknown';
  }

  /** Marks a device code used; true only for the one call that did (a code is redeemed once, across instances). */
  async claimDeviceCode(deviceCode: string): Promise<boolean> {
    const rows: unknown[] = await this.source.query(
      `WITH claimed AS (UPDATE control.oauth_payloads SET consumed_at = now()
        WHERE model = 'DeviceCode' AND id_hash = $1 AND consumed_at IS NULL RETURNING 1) SELECT * FROM claimed`,
      [hashApiToken(deviceCode)],
    );
    return rows.length > 0;
  }

  /** Deletes records that expired a day ago or more; returns how many. */
  async sweep(): Promise<number> {
    const rows: unknown[] = await this.source.query(`WITH gone AS (DELETE FROM control.oauth_payloads WHERE expires_at < $1 RETURNING 1) SELECT * FROM gone`, [
      new Date(Date.now() - KEEP_EXPIRED_MS),
    ]);
    return rows.length;
  }

  private async upsert(model: string, id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { consumed, ...kept } = payload;
    const isAccessToken = model === 'AccessToken';
    const subject = parseSubject(payload.accountId);
    await this.source.query(
      `INSERT INTO control.oauth_payloads
         (model, id_hash, payload_sealed, grant_id_hash, uid_hash, user_code_hash, tenant_id, audience, expires_at, consumed_at, account_id, polled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, CASE WHEN $1 = 'DeviceCode' THEN now() END)
       ON CONFLICT (model, id_hash) DO UPDATE SET
         payload_sealed = EXCLUDED.payload_sealed, grant_id_hash = EXCLUDED.grant_id_hash, uid_hash = EXCLUDED.uid_hash,
         user_code_hash = EXCLUDED.user_code_hash, tenant_id = EXCLUDED.tenant_id, account_id = EXCLUDED.account_id, audience = EXCLUDED.audience,
         expires_at = EXCLUDED.expires_at, consumed_at = COALESCE(oauth_payloads.consumed_at, EXCLUDED.consumed_at)`,
      [
        model,
        hashApiToken(id),
        this.box.seal(JSON.stringify(kept)),
        hashOf(payload.grantId),
        hashOf(payload.uid),
        hashOf(payload.userCode),
        isAccessToken ? (subject?.tenantId ?? null) : null,
        isAccessToken ? audienceOf(payload.aud) : null,
        expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
        consumed ? new Date(Number(consumed) * 1000) : null,
        isAccessToken ? (subject?.accountId ?? null) : null,
      ],
    );
  }

  private async findBy(model: string, column: 'id_hash' | 'uid_hash' | 'user_code_hash', value: string): Promise<AdapterPayload | undefined> {
    const rows: PayloadRow[] = await this.source.query(`SELECT payload_sealed, consumed_at FROM control.oauth_payloads WHERE model = $1 AND ${column} = $2`, [
      model,
      hashApiToken(value),
    ]);
    const row = rows[0];
    if (!row) return undefined;
    const payload = JSON.parse(this.box.open(row.payload_sealed)) as AdapterPayload;
    if (row.consumed_at) payload.consumed = Math.floor(new Date(row.consumed_at).getTime() / 1000);
    return payload;
  }

  private async consume(model: string, id: string): Promise<void> {
    await this.source.query(`UPDATE control.oauth_payloads SET consumed_at = now() WHERE model = $1 AND id_hash = $2 AND consumed_at IS NULL`, [model, hashApiToken(id)]);
  }

  private async remove(model: string, column: 'id_hash' | 'grant_id_hash', value: string): Promise<void> {
    // A DELETE's RETURNING rows come back through a CTE: TypeORM answers a bare DELETE with [rows, count].
    const rows: { id_hash: string }[] = await this.source.query(
      `WITH gone AS (DELETE FROM control.oauth_payloads WHERE model = $1 AND ${column} = $2 RETURNING id_hash) SELECT id_hash FROM gone`,
      [model, hashApiToken(value)],
    );
    if (model === 'AccessToken') for (const row of rows) this.forget(row.id_hash);
  }
}

function hashOf(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? hashApiToken(value) : null;
}

/** An access token's audience as stored: the one resource it was issued for (Baton issues one per token). */
function audienceOf(aud: unknown): string | null {
  if (typeof aud === 'string') return aud;
  if (Array.isArray(aud) && aud.length === 1 && typeof aud[0] === 'string') return aud[0];
  return null;
}
