import { displayUserCode, newUserCode, normalizeUserCode } from './user-code.util';

describe('user codes', () => {
  test('a new code is 8 of the 20 consonants, shown in two groups of four', () => {
    for (let i = 0; i < 50; i++) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      expect(displayUserCode(code)).toBe(`${code.slice(0, 4)}-${code.slice(4)}`);
    }
  });

  test('a typed code matches whatever its case, spaces and dashes', () => {
    expect(normalizeUserCode('bcdf-ghjk')).toBe('BCDFGHJK');
    expect(normalizeUserCode(' BCDF ghjk ')).toBe('BCDFGHJK');
    expect(normalizeUserCode('--')).toBe('');
  });
});
