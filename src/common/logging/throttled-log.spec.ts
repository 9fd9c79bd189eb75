import { Logger } from '@nestjs/common';
import { ThrottledLog } from './throttled-log';

describe('ThrottledLog', () => {
  test('writes a cause once, then once per interval with the occurrences it stands for', () => {
    const lines: Record<string, unknown>[] = [];
    const logger = { warn: (line: Record<string, unknown>) => lines.push(line) } as unknown as Logger;
    let now = 0;
    const log = new ThrottledLog(logger, 1000, () => now);
    for (let i = 0; i < 50; i++) log.warn('database unavailable', { status: 503 });
    log.warn('other cause');
    expect(lines).toEqual([
      { msg: 'database unavailable', count: 1, status: 503 },
      { msg: 'other cause', count: 1 },
    ]);
    now = 1000;
    log.warn('database unavailable', { status: 503 });
    expect(lines[2]).toEqual({ msg: 'database unavailable', count: 50, status: 503 });
  });
});
