import { SessionKind } from '../sessions/session.entity';
import { sessionLines } from './sessions-section.util';

const session = (id: string, name: string, kind: SessionKind = 'interactive') => ({ id, name, kind, human_id: 'ada', last_seen: new Date('2026-03-01T09:30:00Z') });
const lock = (session_id: string, file_path: string) => ({ session_id, file_path });

describe('sessionLines', () => {
  test('one line per session, in the order given, saying who it is and when it was last seen', () => {
    expect(sessionLines([session('s2', 'reviewer', 'worker'), session('s1', 'main')], [])).toEqual([
      'reviewer (worker, ada, session s2), last seen 2026-03-01T09:30:00.000Z',
      'main (interactive, ada, session s1), last seen 2026-03-01T09:30:00.000Z',
    ]);
  });

  test('each session names the files it holds, in the order given, and no other session’s', () => {
    const lines = sessionLines([session('s1', 'main'), session('s2', 'other')], [lock('s1', 'a.ts'), lock('s2', 'b.ts'), lock('s1', 'c.ts')]);
    expect(lines[0]).toBe('main (interactive, ada, session s1), last seen 2026-03-01T09:30:00.000Z; holds a.ts, c.ts');
    expect(lines[1]).toMatch(/; holds b\.ts$/);
  });

  test('past five files, the rest are counted', () => {
    const locks = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((f) => lock('s1', `${f}.ts`));
    expect(sessionLines([session('s1', 'main')], locks)[0]).toMatch(/; holds a\.ts, b\.ts, c\.ts, d\.ts, e\.ts and 2 more$/);
    expect(sessionLines([session('s1', 'main')], locks.slice(0, 5))[0]).toMatch(/; holds a\.ts, b\.ts, c\.ts, d\.ts, e\.ts$/);
  });

  test('a lock of a session not listed is ignored; no session gives no line', () => {
    expect(sessionLines([session('s1', 'main')], [lock('gone', 'x.ts')])).toEqual(['main (interactive, ada, session s1), last seen 2026-03-01T09:30:00.000Z']);
    expect(sessionLines([], [lock('s1', 'x.ts')])).toEqual([]);
  });
});
