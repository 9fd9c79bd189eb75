import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

const SECRET = 'a-session-secret-of-some-length';

describe('SecretBox', () => {
  const k1 = { id: 'k1', material: randomBytes(32) };
  const k2 = { id: 'k2', material: randomBytes(32) };

  test('without sealing keys it seals with the service secret (v1) and opens it again', () => {
    const box = new SecretBox(SECRET, 'test');
    const sealed = box.seal('postgres://u:p@h/db');
    expect(sealed.startsWith('v1.')).toBe(true);
    expect(sealed).not.toContain('postgres');
    expect(box.open(sealed)).toBe('postgres://u:p@h/db');
  });

  test('with sealing keys it seals with the first, naming it, and opens values of every configured key and of the secret', () => {
    const legacy = new SecretBox(SECRET, 'test').seal('old');
    const before = new SecretBox(SECRET, 'test', [k1]).seal('under k1');
    const rotated = new SecretBox(SECRET, 'test', [k2, k1]);
    const sealed = rotated.seal('under k2');
    expect(sealed.startsWith('v2.k2.')).toBe(true);
    expect(rotated.open(sealed)).toBe('under k2');
    expect(rotated.open(before)).toBe('under k1');
    expect(rotated.open(legacy)).toBe('old');
  });

  test('the session secret rotates without the sealing keys: values sealed under a key still open', () => {
    const sealed = new SecretBox(SECRET, 'test', [k1]).seal('value');
    expect(new SecretBox('another-session-secret-entirely', 'test', [k1]).open(sealed)).toBe('value');
  });

  test('a removed key, another purpose or a tampered value does not open', () => {
    const sealed = new SecretBox(SECRET, 'test', [k1]).seal('value');
    expect(() => new SecretBox(SECRET, 'test', [k2]).open(sealed)).toThrow(/key is not configured/);
    expect(() => new SecretBox(SECRET, 'other', [k1]).open(sealed)).toThrow();
    const parts = sealed.split('.');
    parts[4] = Buffer.from('tampered').toString('base64url');
    expect(() => new SecretBox(SECRET, 'test', [k1]).open(parts.join('.'))).toThrow();
  });
});
