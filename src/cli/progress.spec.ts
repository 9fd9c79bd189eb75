import { formatSeconds, Progress } from './progress';

function stream(isTTY: boolean) {
  const out: string[] = [];
  return { out, write: (text: string) => out.push(text), isTTY, columns: 100 };
}

describe('Progress', () => {
  test('without a terminal: a plain line at every tenth of the way, with done/total, rate and ETA', () => {
    let now = 0;
    const s = stream(false);
    const progress = new Progress(20, 'tenants', s, () => now);
    for (let i = 0; i < 20; i++) {
      now += 500;
      progress.tick();
    }
    expect(s.out).toHaveLength(10);
    expect(s.out[0]).toBe('2/20 tenants (10%) · 2.0/s · ETA 9s\n');
    expect(s.out[9]).toBe('20/20 tenants (100%) · 2.0/s · ETA 0s\n');
    expect(s.out.every((line) => !line.includes('\r'))).toBe(true);
  });

  test('without a terminal: a line at least every 10 s when the run is slow', () => {
    let now = 0;
    const s = stream(false);
    const progress = new Progress(1000, 'tenants', s, () => now);
    now = 11_000;
    progress.tick();
    expect(s.out).toEqual(['1/1000 tenants (0%) · 0.1/s · ETA 3h03m\n']);
  });

  test('on a terminal: one bar redrawn in place, a failure on a line of its own, a newline at the end', () => {
    let now = 0;
    const s = stream(true);
    const progress = new Progress(4, 'tenants', s, () => now);
    now += 1000;
    progress.tick();
    progress.note('tenant x failed: boom');
    now += 1000;
    progress.tick();
    now += 1000;
    progress.tick();
    now += 1000;
    progress.tick();
    progress.finish();
    expect(s.out[0]).toMatch(/^\r\x1b\[2K\[#{10}-{30}\] 1\/4 tenants \(25%\) · 1\.0\/s · ETA 3s$/);
    expect(s.out[1]).toBe('\r\x1b[2Ktenant x failed: boom\n');
    expect(s.out[s.out.length - 2]).toMatch(/\[#{40}\] 4\/4 tenants \(100%\)/);
    expect(s.out[s.out.length - 1]).toBe('\n');
  });

  test('formatSeconds', () => {
    expect([formatSeconds(4.4), formatSeconds(75), formatSeconds(7260), formatSeconds(Infinity)]).toEqual(['4s', '1m15s', '2h01m', '?']);
  });
});
