import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { generateApiToken, TOKEN_PREFIX, tokenShape } from './api-token.util';

describe('API token format', () => {
  test('a new token is the prefix, 36 random base62 characters and their base62 CRC32', () => {
    const token = generateApiToken();
    expect(token).toMatch(/^sk_service_[0-9A-Za-z]{42}$/);
    const random = token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 36);
    // The checksum is public on purpose: a secret scanner recomputes it the same way.
    const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const decoded = [...token.slice(-6)].reduce((n, c) => n * 62 + alphabet.indexOf(c), 0);
    expect(decoded).toBe(crc32(random));
    expect(tokenShape(token)).toBe('checksummed');
  });

  test('new tokens differ and use the whole alphabet', () => {
    const tokens = Array.from({ length: 200 }, generateApiToken);
    expect(new Set(tokens).size).toBe(200);
    const seen = new Set(tokens.flatMap((t) => [...t.slice(TOKEN_PREFIX.length, -6)]));
    expect(seen.size).toBe(62);
  });

  test('one character changed, dropped or swapped is recognised as mistyped', () => {
    const token = generateApiToken();
    const at = TOKEN_PREFIX.length + 5;
    const changed = token.slice(0, at) + (token[at] === 'a' ? 'b' : 'a') + token.slice(at + 1);
    const swapped = token.slice(0, at) + token[at + 1] + token[at] + token.slice(at + 2);
    expect(tokenShape(changed)).toBe('bad-checksum');
    if (token[at] !== token[at + 1]) expect(tokenShape(swapped)).toBe('bad-checksum');
    expect(tokenShape(token.slice(0, -1))).toBe('malformed');
    expect(tokenShape(token.slice(0, -1) + (token.endsWith('0') ? '1' : '0'))).toBe('bad-checksum');
  });

  test('tokens issued before the checksum are still looked up', () => {
    expect(tokenShape(TOKEN_PREFIX + randomBytes(32).toString('base64url'))).toBe('legacy');
  });

  test.each([['sk_service_'], ['sk_service_not-a-real-token'], ['sk_live_' + 'a'.repeat(42)], [TOKEN_PREFIX + 'a'.repeat(41) + '!']])('%s is malformed', (token) => {
    expect(tokenShape(token)).toBe('malformed');
  });
});
