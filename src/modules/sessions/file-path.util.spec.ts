import { normalizeFilePath } from './file-path.util';

describe('normalizeFilePath', () => {
  test.each([
    ['src/a.ts', 'src/a.ts'],
    ['./src//a.ts', 'src/a.ts'],
    ['  src/a.ts  ', 'src/a.ts'],
    ['src\\lib\\a.ts', 'src/lib/a.ts'],
    ['src/lib/../a.ts', 'src/a.ts'],
    ['src/./lib/./../a.ts/', 'src/a.ts'],
    ['a/b/c/../../d.ts', 'a/d.ts'],
    ['SRC/App.ts', 'SRC/App.ts'],
  ])('%j is keyed %j', (raw, key) => expect(normalizeFilePath(raw)).toBe(key));

  test.each(['..', '../a.ts', 'src/../../a.ts', './..'])('%j climbs out of the repository: refused', (raw) => {
    expect(() => normalizeFilePath(raw)).toThrow(/file_path must stay inside the repository/);
  });

  test.each(['', '   ', '.', './', 'src/..', '/'])('%j names no file: refused', (raw) => {
    expect(() => normalizeFilePath(raw)).toThrow(/must (name a file|be relative)/);
  });

  test.each(['/etc/passwd', '/home/me/repo/src/a.ts', 'C:\\repo\\a.ts', 'c:/repo/a.ts', '//server/share/a.ts'])('%j is absolute: refused without a repository root', (raw) => {
    expect(() => normalizeFilePath(raw)).toThrow(/file_path must be relative to the repository root, for example src\/app.ts/);
  });

  test('an absolute path under the repository root is made relative; one outside it is refused and the root is named', () => {
    const rules = { repoRoot: '/home/me/repo/' };
    expect(normalizeFilePath('/home/me/repo/src/a.ts', rules)).toBe('src/a.ts');
    expect(normalizeFilePath('/home/me/repo/src/../b.ts', rules)).toBe('b.ts');
    expect(() => normalizeFilePath('/home/me/repository/a.ts', rules)).toThrow(/only under the project's repository, \/home\/me\/repo\)/);
    expect(() => normalizeFilePath('/home/me/repo', rules)).toThrow(/relative to the repository root/);
    expect(normalizeFilePath('C:\\Work\\Repo\\src\\a.ts', { repoRoot: 'C:\\Work\\Repo' })).toBe('src/a.ts');
  });

  test('a case-insensitive project keys every spelling of a file in lower case, its root too', () => {
    const rules = { repoRoot: 'C:/Work/Repo', caseInsensitive: true };
    expect(normalizeFilePath('SRC/App.ts', rules)).toBe('src/app.ts');
    expect(normalizeFilePath('c:/work/repo/Src/APP.ts', rules)).toBe('src/app.ts');
  });

  test('refusals name the field they were given in', () => {
    expect(() => normalizeFilePath('../x', {}, 'touches_resources')).toThrow(/^touches_resources must stay inside/);
  });
});
