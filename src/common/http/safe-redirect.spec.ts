import { safeRedirectPath } from './safe-redirect';

describe('safeRedirectPath', () => {
  test.each(['/dashboard', '/activate?user_code=ABCD-EFGH', '/oauth/interaction/xyz#top'])('keeps the same-origin path %s', (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  test.each([
    ['an absolute URL', 'https://evil.example/'],
    ['a scheme-relative URL', '//evil.example/x'],
    ['a backslash browsers read as a slash', '/\\evil.example'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a relative path', 'dashboard'],
    ['a control character', '/x\r\nLocation: https://evil.example'],
    ['an empty value', ''],
    ['a non-string', ['/a']],
    ['an overly long path', '/' + 'a'.repeat(3000)],
  ])('refuses %s', (_label, next) => {
    expect(safeRedirectPath(next)).toBeUndefined();
  });
});
