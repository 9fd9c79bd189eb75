import { baseNickname, baseSlug, comparableWords, fileNameWords, firstFree, titleOverlap, wordsOf } from './sprint-text.util';

const ID = '0a1b2c3d-0000-4000-8000-000000000000';

describe('sprint title words', () => {
  test('words are lowercase letters and digits, split at every other character', () => {
    expect(wordsOf('Fix login-redirect BUG (v2.1)')).toEqual(['fix', 'login', 'redirect', 'bug', 'v2', '1']);
    expect(wordsOf('Ünïcode naïve café')).toEqual(['ünïcode', 'naïve', 'café']);
  });

  test('the overlap is shared words over the shorter title, filler left out', () => {
    const overlap = (a: string, b: string) => titleOverlap(comparableWords(a), comparableWords(b));
    expect(overlap('Fix login redirect bug', 'fix login-redirect bug')).toBe(1);
    expect(overlap('Launch the beta', 'Email the beta testers')).toBe(0.5);
    expect(overlap('Fix signup crash', 'Fix checkout crash')).toBe(0.5);
    expect(overlap('Add tests', 'Add tests for the parser')).toBe(1);
    expect(overlap('The', 'the')).toBe(1);
    expect(titleOverlap(new Set(), new Set(['a']))).toBe(0);
  });

  test('slugs: significant words, at most 8 and 60 characters; a title of filler falls back to the id', () => {
    expect(baseSlug('Fix the login redirect loop on Safari', ID)).toBe('login-redirect-loop-safari');
    expect(baseSlug('one two three four five six seven eight nine ten eleven', ID)).toBe('one-two-three-four-five-six-seven-eight');
    expect(baseSlug(`${'a'.repeat(40)} ${'b'.repeat(30)}`, ID)).toBe('a'.repeat(40));
    expect(baseSlug('Fix it', ID)).toBe('item-0a1b2c3d');
    expect(baseSlug('deadbeef 1234 1234 1234 123456789012', ID)).toBe('deadbeef-1234-1234-1234-123456789012-item');
  });

  test('nicknames: the first two significant words, else an adjective-noun pair from the id', () => {
    expect(baseNickname('Fix the login redirect loop', ID)).toBe('login-redirect');
    expect(baseNickname('Fix it', ID)).toMatch(/^[a-z]+-[a-z]+$/);
    expect(baseNickname('Fix it', ID)).toBe(baseNickname('Do it', ID));
  });

  test('firstFree adds -2, -3, ... until the name is free', () => {
    const taken = new Set(['cache', 'cache-2']);
    expect(firstFree('cache', (c) => taken.has(c))).toBe('cache-3');
    expect(firstFree('store', (c) => taken.has(c))).toBe('store');
  });

  test('file names split into words: no directories, no extension, camelCase and separators split', () => {
    expect(fileNameWords('src/auth/LoginRedirect.controller.ts')).toEqual(['login', 'redirect']);
    expect(fileNameWords('src/billing/invoice_totals.ts')).toEqual(['invoice', 'totals']);
    expect(fileNameWords('.env')).toEqual(['env']);
  });
});
