import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A key that seals stored secrets, named so that values sealed with it can find it again after a rotation. */
export interface SealingKey {
  id: string;
  /** At least 32 bytes of key material. */
  material: Buffer;
}

/**
 * Authenticated encryption (AES-256-GCM) for values stored at rest, such as a
 * tenant's own database URL or a code-host token. Each key is derived with
 * HKDF and a purpose label, so one key serves several purposes without reuse.
 *
 * With sealing keys configured (SERVICE_ENCRYPTION_KEYS), values are sealed
 * with the first and opened with whichever key id they name:
 * `v2.<key id>.<iv>.<tag>.<data>`. Without them, and for values sealed before
 * keys were configured, the key comes from the service secret:
 * `v1.<iv>.<tag>.<data>` (base64url parts). So the session secret and the
 * sealing keys rotate independently: adding a new key first in the list seals
 * new values with it while older ones still open.
 */
export class SecretBox {
  private readonly legacyKey: Buffer;
  private readonly keys: Map<string, Buffer>;
  private readonly current: string | undefined;

  constructor(secret: string, purpose: string, keys: readonly SealingKey[] = []) {
    this.legacyKey = derive(Buffer.from(secret, 'utf8'), purpose);
    this.keys = new Map(keys.map((k) => [k.id, derive(k.material, purpose)]));
    this.current = keys[0]?.id;
  }

  seal(plaintext: string): string {
    const key = this.current === undefined ? this.legacyKey : this.keys.get(this.current)!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')];
    return (this.current === undefined ? ['v1', ...parts] : ['v2', this.current, ...parts]).join('.');
  }

  open(sealed: string): string {
    const parts = sealed.split('.');
    const key = parts[0] === 'v1' ? this.legacyKey : parts[0] === 'v2' ? this.keys.get(parts[1] ?? '') : undefined;
    const [iv, tag, data] = parts.slice(parts[0] === 'v2' ? 2 : 1);
    if (!key || !iv || !tag || data === undefined) throw new Error('Unrecognised sealed value, or its key is not configured');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}

function derive(material: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, 'baton', purpose, 32));
}
