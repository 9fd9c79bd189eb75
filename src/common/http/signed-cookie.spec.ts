import { CookieSigner, secretDigest, secretMatches } from './signed-cookie';

const SECRET = 'unit-session-secret-0123456789';

describe('CookieSigner', () => {
  test('a value it issued is accepted until it expires, and not after', () => {
    const signer = new CookieSigner(SECRET, 'gate');
    const now = Date.UTC(2030, 0, 1);
    const value = signer.issue(60_000, now);
    expect(signer.verify(value, now)).toBe(true);
    expect(signer.verify(value, now + 59_000)).toBe(true);
    expect(signer.verify(value, now + 60_000)).toBe(false);
  });

  test('another purpose or another secret does not accept it', () => {
    const value = new CookieSigner(SECRET, 'gate').issue(60_000);
    expect(new CookieSigner(SECRET, 'admin').verify(value)).toBe(false);
    expect(new CookieSigner(`${SECRET}x`, 'gate').verify(value)).toBe(false);
  });

  test('a changed expiry, a changed mac and malformed values are refused', () => {
    const signer = new CookieSigner(SECRET, 'gate');
    const value = signer.issue(60_000);
    const [expiry, mac] = value.split('.');
    expect(signer.verify(`${Number(expiry) + 1}.${mac}`)).toBe(false);
    expect(signer.verify(`${expiry}.${mac.slice(1)}`)).toBe(false);
    for (const bad of [undefined, '', '.', `${expiry}`, `${expiry}.${mac}.x`, `-1.${mac}`]) expect(signer.verify(bad)).toBe(false);
  });
});

describe('secretMatches', () => {
  test('compares the whole secret, whatever its length', () => {
    const digest = secretDigest('right-password');
    expect(secretMatches('right-password', digest)).toBe(true);
    expect(secretMatches('right-passwor', digest)).toBe(false);
    expect(secretMatches('right-password ', digest)).toBe(false);
    expect(secretMatches('', digest)).toBe(false);
  });
});
