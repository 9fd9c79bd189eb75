import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Baton as an OAuth 2.1 authorization server (src/modules/oauth-server/).
 *
 * `oauth_payloads` holds everything the server remembers between requests:
 * clients, grants, authorization codes, device codes, access and refresh
 * tokens, interactions and its own sessions, one row each, keyed by the kind
 * of record (`model`) and the SHA-256 of its id. Lookups by grant, session uid
 * and user code go through the SHA-256 of those values too, and the payload is
 * sealed with the service secret: a dump of this table holds no token, code
 * or id a client could present. `tenant_id`, `account_id` and `audience` are
 * copied out of an access token's payload so that the tenant guard finds its
 * workspace, and that the person still belongs to it, in one query; `polled_at` is when a device code was last polled.
 *
 * `oauth_signing_keys` holds the server's signing keys (JWKS), sealed, made
 * once by the first instance that starts and shared by every instance.
 */
export class OAuthServer1732420000000 implements MigrationInterface {
  name = 'OAuthServer1732420000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE TABLE oauth_payloads (
      model text NOT NULL,
      id_hash char(64) NOT NULL,
      payload_sealed text NOT NULL,
      grant_id_hash char(64),
      uid_hash char(64),
      user_code_hash char(64),
      tenant_id uuid REFERENCES tenants(id) ON DELETE CASCADE,
      account_id text,
      audience text,
      expires_at timestamptz,
      consumed_at timestamptz,
      polled_at timestamptz,
      PRIMARY KEY (model, id_hash)
    )`);
    await runner.query('CREATE INDEX oauth_payloads_grant_ix ON oauth_payloads (grant_id_hash) WHERE grant_id_hash IS NOT NULL');
    await runner.query('CREATE INDEX oauth_payloads_uid_ix ON oauth_payloads (uid_hash) WHERE uid_hash IS NOT NULL');
    await runner.query('CREATE INDEX oauth_payloads_user_code_ix ON oauth_payloads (user_code_hash) WHERE user_code_hash IS NOT NULL');
    await runner.query('CREATE INDEX oauth_payloads_expiry_ix ON oauth_payloads (expires_at) WHERE expires_at IS NOT NULL');
    await runner.query(`CREATE TABLE oauth_signing_keys (
      id text PRIMARY KEY,
      jwks_sealed text NOT NULL,
      created_at timestamptz NOT NULL
    )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE oauth_signing_keys; DROP TABLE oauth_payloads');
  }
}
