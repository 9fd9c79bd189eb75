import { Inject, Injectable } from '@nestjs/common';
import { realRetryClock, retry } from '../../../libs/retry';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { CODEHOST_MAX_PAGES, CODEHOST_MAX_RATE_LIMIT_WAIT_MS, CODEHOST_PAGE_SIZE, CODEHOST_RATE_LIMIT_ATTEMPTS, CODEHOST_REQUEST_TIMEOUT_MS } from './codehost.constants';
import { CodehostError } from './codehost.errors';
import { nextPageUrl } from './codehost-paging.util';
import { rateLimitWaitMs } from './codehost-rate-limit.util';

/** One call of the code host's REST API. `what` names its object in refusals ("repository a/b"). */
export interface CodehostCall {
  method?: 'GET' | 'PUT' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  what: string;
}

export interface CodehostAnswer<T> {
  status: number;
  body: T;
  headers: Headers;
}

type Attempt<T> = { ok: true; value: CodehostAnswer<T> } | { ok: false; failure: { waitMs: number }; final?: boolean };

/**
 * The code host's REST API (GitHub's shapes) at CODEHOST_API_URL, over fetch: each request within
 * CODEHOST_REQUEST_TIMEOUT_MS, tried again when the code host answers that its rate limit is
 * reached (waiting what it asks, bounded), lists gathered across pages. The token goes only to the
 * API's own address and appears in no error or log line.
 */
@Injectable()
export class CodehostClient {
  private readonly base: string;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.base = config.codehostApiUrl;
  }

  async request<T>(token: string, call: CodehostCall): Promise<CodehostAnswer<T>> {
    return this.send<T>(token, call, this.urlOf(call.path, call.query));
  }

  /** Every item of a list, following Link rel="next" up to CODEHOST_MAX_PAGES pages. */
  async collect<T>(token: string, call: CodehostCall): Promise<T[]> {
    const items: T[] = [];
    let url: string | undefined = this.urlOf(call.path, { per_page: CODEHOST_PAGE_SIZE, ...call.query });
    for (let page = 0; url && page < CODEHOST_MAX_PAGES; page++) {
      const answer: CodehostAnswer<T[]> = await this.send<T[]>(token, call, url);
      if (!Array.isArray(answer.body)) throw CodehostError.unavailable(`the code host answered something other than a list for ${call.what}`);
      items.push(...answer.body);
      url = nextPageUrl(answer.headers.get('link'), this.base);
    }
    return items;
  }

  private urlOf(path: string, query: CodehostCall['query'] = {}): string {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    return url.toString();
  }

  private async send<T>(token: string, call: CodehostCall, url: string): Promise<CodehostAnswer<T>> {
    const result = await retry<CodehostAnswer<T>, { waitMs: number }>(() => this.attempt<T>(token, call, url), {
      attempts: CODEHOST_RATE_LIMIT_ATTEMPTS,
      backoff: { firstMs: 250, maxMs: 2_000, jitter: [0, 0.2] },
      // The backoff is the least wait; the rest of what the code host asked for is waited here.
      onRetry: ({ failure, delayMs }) => (failure.waitMs > delayMs ? realRetryClock.sleep(failure.waitMs - delayMs) : undefined),
    });
    if (result.ok) return result.value;
    throw CodehostError.rateLimited(Math.max(1, Math.ceil((result.failure?.waitMs ?? 0) / 1000)));
  }

  private async attempt<T>(token: string, call: CodehostCall, url: string): Promise<Attempt<T>> {
    let response: Response;
    try {
      response = await fetch(url, {
        method: call.method ?? 'GET',
        headers: {
          accept: 'application/vnd.github+json',
          'user-agent': 'Baton',
          authorization: `Bearer ${token}`,
          ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        redirect: 'error',
        signal: AbortSignal.timeout(CODEHOST_REQUEST_TIMEOUT_MS),
      });
    } catch (cause) {
      throw CodehostError.unavailable(`the code host (${new URL(this.base).host}) could not be reached for ${call.what}`, cause);
    }
    const waitMs = rateLimitWaitMs(response.status, response.headers, Date.now());
    if (waitMs !== undefined) {
      await response.body?.cancel();
      return { ok: false, failure: { waitMs }, final: waitMs > CODEHOST_MAX_RATE_LIMIT_WAIT_MS };
    }
    const text = await response.text();
    if (!response.ok) throw refusal(response.status, call, messageOf(text, token));
    try {
      return { ok: true, value: { status: response.status, headers: response.headers, body: (text ? JSON.parse(text) : undefined) as T } };
    } catch (cause) {
      throw CodehostError.unavailable(`the code host answered something other than JSON for ${call.what}`, cause);
    }
  }
}

/** The code host's own words (its `message`), short, with the token blotted out should it ever be echoed. */
function messageOf(text: string, token: string): string {
  let message = '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { message?: unknown }).message === 'string') message = (parsed as { message: string }).message;
  } catch {
    message = '';
  }
  return message.split(token).join('[token]').slice(0, 300) || 'no reason given';
}

function refusal(status: number, call: CodehostCall, message: string): CodehostError {
  if (status === 401) return CodehostError.tokenRejected();
  if (status === 404) return CodehostError.notFound(call.what);
  if (status === 403) return CodehostError.forbiddenByCodehost(call.what, message);
  if (status === 409 || status === 422 || status === 400) return CodehostError.refused(call.what, message);
  return CodehostError.unavailable(`the code host answered ${status} for ${call.what}`);
}
