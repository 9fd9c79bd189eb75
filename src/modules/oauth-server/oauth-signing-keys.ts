import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../../libs/tenancy';

/** The private JWKs the authorization server signs with (ID tokens; Baton's access tokens are opaque). */
export interface SigningKeys {
  keys: Record<string, unknown>[];
}

const ROW_ID = 'jwks';

/**
 * The signing keys every instance shares: read from the control plane, or made there by the
 * first instance that starts (an insert that loses a race to another instance's is dropped, and
 * both read the one that won). Stored sealed with the service secret, never in clear.
 */
export async function loadSigningKeys(source: DataSource, box: SecretBox): Promise<SigningKeys> {
  const stored = await read(source);
  if (stored) return JSON.parse(box.open(stored)) as SigningKeys;
  await source.query(`INSERT INTO control.oauth_signing_keys (id, jwks_sealed, created_at) VALUES ($1, $2, now()) ON CONFLICT (id) DO NOTHING`, [
    ROW_ID,
    box.seal(JSON.stringify(newSigningKeys())),
  ]);
  const made = await read(source);
  if (!made) throw new Error('the OAuth signing keys were written but cannot be read back');
  return JSON.parse(box.open(made)) as SigningKeys;
}

async function read(source: DataSource): Promise<string | undefined> {
  const rows: { jwks_sealed: string }[] = await source.query('SELECT jwks_sealed FROM control.oauth_signing_keys WHERE id = $1', [ROW_ID]);
  return rows[0]?.jwks_sealed;
}

/** One RS256 key: what every OpenID client can verify. */
function newSigningKeys(): SigningKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return { keys: [{ ...jwk, kid: randomBytes(12).toString('base64url'), use: 'sig', alg: 'RS256' }] };
}
