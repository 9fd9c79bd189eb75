import { request as httpRequest, RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Backoff, retry } from '../../../libs/retry';
import { CheckedTarget, OutboundGuard, OutboundRefusedError, pinnedLookup } from '../../../libs/outbound-guard';

export type DeliveryOutcome = 'delivered' | 'failed' | 'refused';

export interface WebhookOptions {
  /** A tenant-chosen URL passes this guard (refused when internal in hosted mode) and the request goes to the address it checked; none for the operator's own targets. */
  guard?: OutboundGuard;
  timeoutMs: number;
  attempts?: number;
  headers?: Record<string, string>;
}

/** 250 ms doubling, each wait spread by up to a quarter either way. */
const RETRY_BACKOFF: Backoff = { firstMs: 250, jitter: [-0.25, 0.25] };

/**
 * POSTs a JSON body to `url` with a deadline per attempt and at most
 * `attempts` tries (network error, timeout, 429 or 5xx are retried with
 * backoff; other statuses are final). Never throws: the outcome says what
 * happened, and `refused` means no connection was attempted at all.
 */
export async function postJson(url: string, body: unknown, options: WebhookOptions): Promise<{ outcome: DeliveryOutcome; status?: number; reason?: string }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { outcome: 'refused', reason: 'not a URL' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { outcome: 'refused', reason: 'not an http(s) URL' };
  let pinned: CheckedTarget | undefined;
  if (options.guard) {
    try {
      pinned = await options.guard.checkUrl(parsed);
    } catch (error) {
      if (error instanceof OutboundRefusedError) return { outcome: 'refused', reason: error.reason };
      throw error;
    }
  }
  const payload = Buffer.from(JSON.stringify(body));
  const delivery = await retry<number, { status?: number; reason?: string }>(
    async () => {
      const answer = await once(parsed, payload, options, pinned);
      if (answer.status !== undefined && answer.status < 300) return { ok: true, value: answer.status };
      const retriable = answer.status === undefined || answer.status === 429 || answer.status >= 500;
      return { ok: false, failure: answer, final: !retriable };
    },
    { backoff: RETRY_BACKOFF, attempts: options.attempts ?? 3 },
  );
  return delivery.ok ? { outcome: 'delivered', status: delivery.value } : { outcome: 'failed', ...delivery.failure };
}

function once(url: URL, payload: Buffer, options: WebhookOptions, pinned?: CheckedTarget): Promise<{ status?: number; reason?: string }> {
  return new Promise((resolve) => {
    const lookup = pinned ? pinnedLookup(pinned) : undefined;
    const requestOptions: RequestOptions = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(payload.length), 'user-agent': 'baton-notifications', ...options.headers },
      timeout: options.timeoutMs,
      lookup,
    };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(url, requestOptions, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
      res.on('error', () => resolve({ status: res.statusCode }));
    });
    const timer = setTimeout(() => req.destroy(new Error('timeout')), options.timeoutMs);
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (error: Error & { code?: string }) => resolve({ reason: error.code ?? error.message }));
    req.on('close', () => clearTimeout(timer));
    req.end(payload);
  });
}
