import { IdentifierPool } from './sprint-identifiers.service';

describe('IdentifierPool.firstFree', () => {
  test('many items of one base get base, base-2, base-3, ... in order, each once', () => {
    const pool = new IdentifierPool(new Set(['fix-login', 'fix-login-2', 'fix-login-4']));
    const given: string[] = [];
    for (let i = 0; i < 5; i++) {
      const id = pool.firstFree('fix-login');
      pool.add(id);
      given.push(id);
    }
    expect(given).toEqual(['fix-login-3', 'fix-login-5', 'fix-login-6', 'fix-login-7', 'fix-login-8']);
  });

  test('a freed identifier below the last one given is found again (after a refused insert)', () => {
    const pool = new IdentifierPool(new Set(['cache', 'cache-2', 'cache-3']));
    expect(pool.firstFree('cache')).toBe('cache-4');
    pool.add('cache-4');
    pool.delete('cache-2');
    expect(pool.firstFree('cache')).toBe('cache-2');
  });

  test('an identifier taken meanwhile by another base is skipped', () => {
    const pool = new IdentifierPool(new Set(['api', 'api-2']));
    expect(pool.firstFree('api')).toBe('api-3');
    pool.add('api-3', 'api-4'); // api-4: a slug whose own base was "api-4"
    expect(pool.firstFree('api')).toBe('api-5');
    expect(pool.firstFree('other')).toBe('other');
  });

  test('ten thousand items of one base: every identifier distinct and in sequence', () => {
    const pool = new IdentifierPool(new Set());
    const given = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const id = pool.firstFree('bench-item');
      pool.add(id);
      given.add(id);
    }
    expect(given.size).toBe(10_000);
    expect(given.has('bench-item')).toBe(true);
    expect(given.has('bench-item-10000')).toBe(true);
    expect(given.has('bench-item-10001')).toBe(false);
  });
});
