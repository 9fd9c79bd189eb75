import { retry } from '../retry';
import { BACKOFF_JITTER } from './backoff';
import type { OtlpLibrary } from './loader';
import { ExportLogRecord, ExportTarget, OtlpChunkSender, SendOutcome } from './otlp-sender';
import { ExportNumbers } from './settings';

/** An event waiting to be exported, with its position in the durable order. */
export interface PendingRecord {
  seq: number;
  record: ExportLogRecord;
}

/**
 * Where a pass reads from and where it records progress. `read` answers the
 * events after the watermark, oldest first; `advance` durably moves the
 * watermark to `seq` once the endpoint accepted everything up to it, and
 * answers false when this pass no longer owns the watermark (another pass took
 * over after a lease ran out), which ends the pass.
 */
export interface ExportSource {
  read(limit: number): Promise<PendingRecord[]>;
  advance(seq: number, count: number): Promise<boolean>;
}

export type DegradedReason = 'deadline' | 'chunk_failed' | 'claim_lost';

export interface ExportPassResult {
  status: 'ok' | 'degraded';
  /** Why the pass stopped early; null when everything fetched was sent. */
  reason: DegradedReason | null;
  fetched: number;
  sent: number;
  chunks_sent: number;
  attempts: number;
  retries: number;
  /** The waits before each retry, in order. */
  retry_delays_ms: number[];
  last_error: string | null;
  /** Highest seq the endpoint accepted in this pass (null when none). */
  last_sent_seq: number | null;
  duration_ms: number;
}

/** Time, sleeping and randomness, replaceable in tests. */
export interface PassClock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

const realClock: PassClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/** Sends one chunk; the default is the library's OTLP/HTTP exporter. */
export interface ChunkSender {
  send(records: ExportLogRecord[], timeoutMs: number): Promise<SendOutcome>;
  close(): void;
}

/**
 * One export pass: fetch up to `batchSize` events after the watermark, send
 * them in chunks of `chunkSize` in order, and advance the watermark after each
 * chunk the endpoint accepted. A failed chunk is retried up to `maxRetries`
 * times with growing, jittered delays. The pass never skips a chunk: when one
 * cannot be delivered (retries used up, or the deadline would pass before the
 * next attempt) it stops there with a degraded result, and the next pass
 * starts again from that chunk. Nothing accepted is ever sent again by a later
 * pass, because the watermark moved past it before the next chunk was tried.
 */
export async function runExportPass(source: ExportSource, sender: ChunkSender, numbers: ExportNumbers, clock: PassClock = realClock): Promise<ExportPassResult> {
  const started = clock.now();
  const deadlineAt = started + numbers.totalDeadlineS * 1000;
  const result: ExportPassResult = {
    status: 'ok',
    reason: null,
    fetched: 0,
    sent: 0,
    chunks_sent: 0,
    attempts: 0,
    retries: 0,
    retry_delays_ms: [],
    last_error: null,
    last_sent_seq: null,
    duration_ms: 0,
  };
  const stop = (reason: DegradedReason) => {
    result.status = 'degraded';
    result.reason = reason;
    result.duration_ms = clock.now() - started;
    return result;
  };

  const pending = await source.read(numbers.batchSize);
  result.fetched = pending.length;
  const chunkSize = Math.max(1, Math.min(numbers.chunkSize, numbers.batchSize));
  for (let from = 0; from < pending.length; from += chunkSize) {
    const chunk = pending.slice(from, from + chunkSize);
    const delivery = await retry<boolean, string>(
      async (_attempt, remainingMs) => {
        result.attempts++;
        const outcome = await sender.send(
          chunk.map((p) => p.record),
          Math.min(numbers.timeoutS * 1000, remainingMs),
        );
        if (outcome.ok) return { ok: true, value: await source.advance(chunk[chunk.length - 1].seq, chunk.length) };
        result.last_error = outcome.error;
        return { ok: false, failure: outcome.error };
      },
      {
        backoff: { firstMs: numbers.backoffBaseS * 1000, jitter: BACKOFF_JITTER },
        attempts: numbers.maxRetries + 1,
        deadlineAt,
        clock,
        onRetry: ({ delayMs }) => {
          result.retries++;
          result.retry_delays_ms.push(delayMs);
        },
      },
    );
    if (!delivery.ok) return stop(delivery.stop === 'attempts' ? 'chunk_failed' : 'deadline');
    if (!delivery.value) return stop('claim_lost');
    result.sent += chunk.length;
    result.chunks_sent++;
    result.last_sent_seq = chunk[chunk.length - 1].seq;
  }
  result.duration_ms = clock.now() - started;
  return result;
}

/** The library-backed sender for `target`. */
export function createOtlpSender(library: OtlpLibrary, target: ExportTarget): ChunkSender {
  return new OtlpChunkSender(library, target);
}
