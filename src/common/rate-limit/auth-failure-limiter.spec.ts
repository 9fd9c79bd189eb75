import { clientKey, REFUSAL_LOG_INTERVAL_MS, RefusalLog } from './auth-failure-limiter';

describe('clientKey', () => {
  test.each([
    ['192.0.2.7', '192.0.2.7'],
    ['::ffff:192.0.2.7', '192.0.2.7'],
    ['::FFFF:192.0.2.7', '192.0.2.7'],
    ['2001:db8:0:1::5', '2001:db8:0:1::/64'],
    ['2001:0db8:0000:0001:ffff:ffff:ffff:ffff', '2001:db8:0:1::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.7', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
    ['', 'unknown'],
  ])('%s is counted as %s', (address, key) => {
    expect(clientKey(address)).toBe(key);
  });

  test('two addresses of one /64 are one client; of two /64s, two', () => {
    expect(clientKey('2001:db8:aa:bb:1::1')).toBe(clientKey('2001:db8:aa:bb:ffff::2'));
    expect(clientKey('2001:db8:aa:bb::1')).not.toBe(clientKey('2001:db8:aa:bc::1'));
  });
});

describe('RefusalLog', () => {
  const lines: Record<string, unknown>[] = [];
  const log = new RefusalLog({ warn: (line: Record<string, unknown>) => lines.push(line) });

  beforeEach(() => {
    jest.useFakeTimers();
    lines.length = 0;
  });
  afterEach(() => {
    log.flush(true);
    jest.useRealTimers();
  });

  test('the first refusal of a cause is written at once, the rest as one tally when the interval is over', () => {
    log.record('unknown', '192.0.2.1', false);
    expect(lines).toEqual([expect.objectContaining({ cause: 'unknown', count: 1 })]);
    for (let i = 0; i < 50; i++) log.record('unknown', i % 2 ? '192.0.2.1' : '192.0.2.2', i >= 40);
    log.record('unknown', '192.0.2.1', false);
    expect(lines).toHaveLength(1);
    jest.advanceTimersByTime(REFUSAL_LOG_INTERVAL_MS - 1000);
    expect(lines).toHaveLength(1);
    jest.advanceTimersByTime(1001);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      msg: 'credentials refused',
      cause: 'unknown',
      count: 51,
      answered_429: 10,
      clients: 2,
      top_client: '192.0.2.1',
      top_client_count: 26,
    });
    // Nothing pending: the timer writes no empty line.
    jest.advanceTimersByTime(REFUSAL_LOG_INTERVAL_MS * 3);
    expect(lines).toHaveLength(2);
  });

  test('each cause has its own interval', () => {
    log.record('malformed', '192.0.2.1', false);
    log.record('malformed', '192.0.2.1', false);
    expect(lines.map((l) => l.cause)).toEqual(['malformed']);
    jest.advanceTimersByTime(REFUSAL_LOG_INTERVAL_MS + 1);
    expect(lines.map((l) => [l.cause, l.count])).toEqual([
      ['malformed', 1],
      ['malformed', 1],
    ]);
  });
});
