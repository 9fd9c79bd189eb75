import type { SealingKey } from '../../../libs/tenancy/secret-box';
import { integer, list } from '../config.parsers';
import { variable } from './variable';

/** `id:base64key,...`: each key at least 32 bytes; ids are letters, digits, `-` and `_`. */
function sealingKeys(raw: string): SealingKey[] {
  const keys = list(raw).map((entry) => {
    const [id, encoded, extra] = entry.split(':');
    if (!id || !encoded || extra !== undefined || !/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new Error('must be a comma-separated list of id:base64key (the key hidden)');
    const material = Buffer.from(encoded, 'base64');
    if (material.length < 32) throw new Error(`key "${id}" must be at least 32 bytes (base64)`);
    return { id, material };
  });
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error('must not name a key id twice');
  return keys;
}

/** Hosted sign-in: web sessions, and the keys that seal secrets stored at rest. */
export const ACCOUNTS_VARIABLES = {
  encryptionKeys: variable<SealingKey[]>({
    name: 'SERVICE_ENCRYPTION_KEYS',
    description:
      'keys that seal secrets stored at rest (own database URLs, code-host tokens, signing keys), as id:base64key pairs, comma-separated: the first seals, every one opens; unset: a key derived from SESSION_SECRET',
    sensitive: true,
    parse: sealingKeys,
    default: [],
  }),
  previousSessionSecrets: variable<string[]>({
    name: 'SERVICE_PREVIOUS_SESSION_SECRETS',
    description: 'earlier values of SESSION_SECRET, comma-separated: cookies they signed are still accepted, so the secret can be rotated without signing everyone out',
    sensitive: true,
    parse: list,
    default: [],
  }),
  webSessionDays: variable({
    name: 'SERVICE_WEB_SESSION_DAYS',
    description: 'hosted: how long a browser stays signed in after signing in (the web session expires then, whatever its use)',
    sensitive: false,
    parse: integer(1, 365),
    default: 30,
  }),
} as const;
