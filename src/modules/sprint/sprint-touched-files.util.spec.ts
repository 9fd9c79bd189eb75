import { namedFiles, touchedFilesWith } from './sprint-touched-files.util';

const item = (title: string, touched: string[] = []) => ({ title, touches_files: JSON.stringify(touched) });

describe('touched files', () => {
  test('a changed file is named by the words of its name, without directories or extension; a file with none is left out', () => {
    expect(namedFiles(['src/auth/loginRedirect.controller.ts', 'a.ts', 'docs/README'])).toEqual([
      { path: 'src/auth/loginRedirect.controller.ts', words: ['login', 'redirect'] },
      { path: 'docs/README', words: ['readme'] },
    ]);
  });

  test('files whose name shares a word with the title are added after those already there', () => {
    const files = namedFiles(['src/login.controller.ts', 'src/billing.service.ts', 'src/redirect-rules.ts']);
    expect(touchedFilesWith(item('Fix login redirect', ['notes.md']), files)).toEqual(['notes.md', 'src/login.controller.ts', 'src/redirect-rules.ts']);
  });

  test('nothing new to add, or no match at all, gives null', () => {
    const files = namedFiles(['src/login.controller.ts']);
    expect(touchedFilesWith(item('Fix login redirect', ['src/login.controller.ts']), files)).toBeNull();
    expect(touchedFilesWith(item('Write the billing report'), files)).toBeNull();
    expect(touchedFilesWith(item('Fix login'), [])).toBeNull();
  });

  test('filler words of the title match nothing', () => {
    expect(touchedFilesWith(item('Fix the thing'), namedFiles(['src/the.ts', 'src/fix.ts']))).toBeNull();
  });

  test('the list holds at most 100 files', () => {
    const already = Array.from({ length: 99 }, (_, i) => `old-${i}.ts`);
    const files = namedFiles(['src/login-a.ts', 'src/login-b.ts']);
    const merged = touchedFilesWith(item('Fix login', already), files)!;
    expect(merged).toHaveLength(100);
    expect(merged[99]).toBe('src/login-a.ts');
    expect(touchedFilesWith(item('Fix login', [...already, 'x.ts']), files)).toBeNull();
  });
});
