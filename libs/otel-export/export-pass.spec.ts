import { failEverySecondChunk, OtlpReceiver } from '../../test/support/otlp-receiver';
import { ChunkSender, createOtlpSender, ExportSource, PassClock, PendingRecord, runExportPass } from './export-pass';
import { loadOtlpLibrary, OtlpLibrary } from './loader';
import { ExportLogRecord, ExportTarget } from './otlp-sender';
import { effectiveNumbers, ExportNumbers } from './settings';

function record(seq: number): PendingRecord {
  return {
    seq,
    record: {
      timeMs: 1_700_000_000_000 + seq,
      severityNumber: 9,
      severityText: 'INFO',
      eventName: 'baton.tool.call',
      body: `event ${seq}`,
      attributes: { 'baton.event.id': `e-${seq}`, 'baton.event.seq': seq },
    },
  };
}

/** An in-memory event store with a watermark, like the tenant table it stands for. */
class MemorySource implements ExportSource {
  watermark = 0;
  claimed = true;
  constructor(readonly events: PendingRecord[]) {}
  async read(limit: number) {
    return this.events.filter((e) => e.seq > this.watermark).slice(0, limit);
  }
  async advance(seq: number) {
    if (!this.claimed) return false;
    this.watermark = seq;
    return true;
  }
}

const numbers = (n: Partial<ExportNumbers> = {}) => effectiveNumbers({ batchSize: 200, chunkSize: 50, maxRetries: 3, backoffBaseS: 0.05, timeoutS: 2, totalDeadlineS: 10, ...n });

function library(): OtlpLibrary {
  const loaded = loadOtlpLibrary();
  if (!loaded.available) throw new Error(loaded.reason);
  return loaded.library;
}

describe('an export pass against a local OTLP/HTTP receiver', () => {
  let receiver: OtlpReceiver;
  let target: ExportTarget;

  beforeEach(async () => {
    receiver = await new OtlpReceiver().start();
    target = {
      endpoint: receiver.endpoint,
      headers: { authorization: 'Bearer collector-credential', 'x-scope': 'tests' },
      resource: { 'service.name': 'baton-tests' },
      scope: { name: 'baton.ai-log', version: '1.2.3' },
    };
  });
  afterEach(async () => {
    await receiver.stop();
  });

  test('sends a batch in order, in chunks of the configured size, and advances the watermark per chunk', async () => {
    const source = new MemorySource(Array.from({ length: 130 }, (_, i) => record(i + 1)));
    const sender = createOtlpSender(library(), target);
    try {
      const result = await runExportPass(source, sender, numbers({ batchSize: 120, chunkSize: 50 }));
      expect(result).toMatchObject({ status: 'ok', reason: null, fetched: 120, sent: 120, chunks_sent: 3, retries: 0, last_sent_seq: 120 });
      expect(receiver.requests.map((r) => r.records.length)).toEqual([50, 50, 20]);
      expect(receiver.accepted.map((r) => r.attributes['baton.event.seq'])).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
      expect(source.watermark).toBe(120);
      const first = receiver.accepted[0];
      expect(first).toMatchObject({
        body: 'event 1',
        eventName: 'baton.tool.call',
        severityText: 'INFO',
        severityNumber: 9,
        resource: { 'service.name': 'baton-tests' },
        scope: { name: 'baton.ai-log', version: '1.2.3' },
      });
      expect(BigInt(first.timeUnixNano)).toBe(BigInt(1_700_000_000_001) * 1_000_000n);
      expect(receiver.requests[0].path).toBe('/v1/logs');
      expect(receiver.requests[0].headers['content-type']).toBe('application/json');
      expect(receiver.requests[0].headers.authorization).toBe('Bearer collector-credential');
    } finally {
      sender.close();
    }
  });

  test('a chunk refused on every attempt is retried maxRetries times with growing delays, then the pass stops degraded without skipping it', async () => {
    receiver.behaviour = failEverySecondChunk(500);
    const source = new MemorySource(Array.from({ length: 30 }, (_, i) => record(i + 1)));
    const sender = createOtlpSender(library(), target);
    try {
      const result = await runExportPass(source, sender, numbers({ chunkSize: 10, maxRetries: 3, backoffBaseS: 0.05 }));
      expect(result).toMatchObject({ status: 'degraded', reason: 'chunk_failed', sent: 10, chunks_sent: 1, attempts: 5, retries: 3, last_error: 'HTTP 500' });
      for (let i = 1; i < result.retry_delays_ms.length; i++) expect(result.retry_delays_ms[i]).toBeGreaterThan(result.retry_delays_ms[i - 1]);
      const attemptsOfSecond = receiver.requests.filter((r) => r.chunkOrdinal === 1);
      expect(attemptsOfSecond).toHaveLength(4);
      for (let i = 1; i < attemptsOfSecond.length; i++) {
        // never sooner than the planned wait (timers do not fire early)
        expect(attemptsOfSecond[i].at - attemptsOfSecond[i - 1].at).toBeGreaterThanOrEqual(result.retry_delays_ms[i - 1] - 5);
      }
      expect(source.watermark).toBe(10);
      expect(receiver.requests.some((r) => r.chunkOrdinal === 2)).toBe(false);

      receiver.behaviour = () => ({ status: 200 });
      const next = await runExportPass(source, sender, numbers({ chunkSize: 10 }));
      expect(next).toMatchObject({ status: 'ok', sent: 20 });
      expect(receiver.accepted.map((r) => r.attributes['baton.event.seq'])).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    } finally {
      sender.close();
    }
  });

  test('a retryable status (503) is one HTTP request per attempt: the library does not retry on its own', async () => {
    receiver.behaviour = () => ({ status: 503 });
    const source = new MemorySource([record(1)]);
    const sender = createOtlpSender(library(), target);
    try {
      const result = await runExportPass(source, sender, numbers({ maxRetries: 2, backoffBaseS: 0.05 }));
      expect(result).toMatchObject({ status: 'degraded', reason: 'chunk_failed', attempts: 3, retries: 2 });
      expect(receiver.requests).toHaveLength(3);
    } finally {
      sender.close();
    }
  });

  test('an attempt slower than the timeout fails as timed out and is retried', async () => {
    receiver.behaviour = ({ attempt }) => ({ status: 200, delayMs: attempt === 1 ? 2500 : 0 });
    const source = new MemorySource([record(1)]);
    const sender = createOtlpSender(library(), target);
    try {
      const result = await runExportPass(source, sender, numbers({ timeoutS: 1, maxRetries: 1 }));
      expect(result.attempts).toBe(2);
      expect(result.last_error).toMatch(/timed out/i);
      expect(result.status).toBe('ok');
    } finally {
      sender.close();
    }
  });

  test('an answer still trickling in when the attempt times out does not block the retry', async () => {
    receiver.behaviour = ({ attempt }) => (attempt === 1 ? { status: 200, trickleMs: 3000 } : { status: 200 });
    const sender = createOtlpSender(library(), target);
    try {
      const result = await runExportPass(new MemorySource([record(1)]), sender, numbers({ timeoutS: 1, maxRetries: 2 }));
      expect(result).toMatchObject({ status: 'ok', attempts: 2, sent: 1, last_error: 'timed out after 1000 ms' });
      expect(receiver.requests).toHaveLength(2);
    } finally {
      sender.close();
    }
  });

  test('the headers sent are exactly the target headers, whatever OTEL_EXPORTER_OTLP_HEADERS holds in the process', async () => {
    const saved = process.env.OTEL_EXPORTER_OTLP_HEADERS;
    process.env.OTEL_EXPORTER_OTLP_HEADERS = 'x-from-process-env=leak';
    const sender = createOtlpSender(library(), target);
    try {
      await runExportPass(new MemorySource([record(1)]), sender, numbers());
      expect(receiver.requests[0].headers['x-from-process-env']).toBeUndefined();
      expect(receiver.requests[0].headers['x-scope']).toBe('tests');
    } finally {
      sender.close();
      if (saved === undefined) delete process.env.OTEL_EXPORTER_OTLP_HEADERS;
      else process.env.OTEL_EXPORTER_OTLP_HEADERS = saved;
    }
  });

  test('an unreachable endpoint fails the attempt with the error code', async () => {
    const port = Number(new URL(receiver.url).port);
    await receiver.stop();
    const sender = createOtlpSender(library(), { ...target, endpoint: `http://127.0.0.1:${port}/v1/logs` });
    try {
      const result = await runExportPass(new MemorySource([record(1)]), sender, numbers({ maxRetries: 0 }));
      expect(result).toMatchObject({ status: 'degraded', reason: 'chunk_failed', sent: 0, last_error: 'ECONNREFUSED' });
    } finally {
      sender.close();
    }
  });
});

describe('an export pass with a fake clock', () => {
  /** A clock that only moves when the pass sleeps or an attempt takes time. */
  function fakeClock(): PassClock & { t: number } {
    const clock = { t: 0, now: () => clock.t, sleep: async (ms: number) => void (clock.t += ms), random: () => 0.5 };
    return clock;
  }
  const failing = (clock: { t: number }, attemptMs: number): ChunkSender & { calls: number } => {
    const sender = {
      calls: 0,
      async send(_records: ExportLogRecord[], timeoutMs: number) {
        sender.calls++;
        clock.t += Math.min(attemptMs, timeoutMs);
        return { ok: false as const, error: 'HTTP 503' };
      },
      close() {},
    };
    return sender;
  };

  test('the pass ends at its deadline with a degraded result instead of sleeping past it', async () => {
    const clock = fakeClock();
    const sender = failing(clock, 100);
    const result = await runExportPass(new MemorySource([record(1), record(2)]), sender, numbers({ maxRetries: 10, backoffBaseS: 0.5, totalDeadlineS: 5 }), clock);
    expect(result.status).toBe('degraded');
    expect(result.reason).toBe('deadline');
    expect(result.duration_ms).toBeLessThanOrEqual(5000);
    // Attempts take 0.1 s; waits 0.625, 1.25, 2.5 s fit in 5 s, the next (5 s) would not.
    expect(result.retry_delays_ms).toEqual([625, 1250, 2500]);
    expect(sender.calls).toBe(4);
  });

  test('an attempt never outlives the deadline: its timeout shrinks to the time left', async () => {
    const clock = fakeClock();
    const timeouts: number[] = [];
    const sender: ChunkSender = {
      async send(_r, timeoutMs) {
        timeouts.push(timeoutMs);
        clock.t += timeoutMs;
        return { ok: false, error: 'timed out' };
      },
      close() {},
    };
    const result = await runExportPass(new MemorySource([record(1)]), sender, numbers({ timeoutS: 5, totalDeadlineS: 7, maxRetries: 5, backoffBaseS: 0.05 }), clock);
    expect(timeouts[0]).toBe(5000);
    expect(timeouts[1]).toBeLessThan(2000);
    expect(result.reason).toBe('deadline');
    expect(clock.t).toBeLessThanOrEqual(7000);
  });

  test('a pass that lost its claim on the watermark stops without sending more', async () => {
    const clock = fakeClock();
    const source = new MemorySource([record(1), record(2), record(3)]);
    source.claimed = false;
    const sent: number[] = [];
    const sender: ChunkSender = {
      async send(records) {
        sent.push(records.length);
        return { ok: true };
      },
      close() {},
    };
    const result = await runExportPass(source, sender, numbers({ chunkSize: 1 }), clock);
    expect(result).toMatchObject({ status: 'degraded', reason: 'claim_lost', sent: 0 });
    expect(sent).toEqual([1]);
  });
});

describe('loading the library', () => {
  test('a missing package is reported as unavailable, not thrown', () => {
    const absent = (id: string) => {
      throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    };
    expect(loadOtlpLibrary(absent)).toEqual({ available: false, reason: '@opentelemetry/otlp-transformer is not installed' });
    expect(loadOtlpLibrary(() => ({}))).toMatchObject({ available: false });
    expect(loadOtlpLibrary()).toMatchObject({ available: true });
  });
});
