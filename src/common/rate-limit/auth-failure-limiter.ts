import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { RequestError } from '../errors/request-error';

/** Why a credential was refused, as the log names it. */
export type RefusalCause = 'malformed' | 'unknown' | 'expired';

const THROTTLER_NAME = 'auth-failures';

/**
 * Counts refused credentials per client address (hosted). Every place that
 * checks a credential (the tenant guard for REST and MCP, the dashboard
 * WebSocket, and any later sign-in check such as a session cookie) hands its
 * refusal to `refuse`, which counts it and says what to answer: the refusal
 * itself (401) while the client is within SERVICE_AUTH_FAILURE_LIMIT refusals
 * per SERVICE_AUTH_FAILURE_WINDOW_SECONDS, and 429 with Retry-After once it has
 * passed them, until the window is over. Only refusals are counted: a valid
 * credential is never asked about here, so people sharing an address with a
 * misbehaving client still get in. An IPv6 client is counted by its /64
 * network, which one host usually holds whole.
 *
 * The counters live in the throttler storage the MCP budget uses: Redis when
 * SERVICE_CACHE_URL is set (one count across instances), this process's memory
 * while Redis is unreachable or not configured. Counting never throws.
 */
@Injectable()
export class AuthFailureLimiter implements OnModuleDestroy {
  private readonly log = new RefusalLog(new Logger('auth'));

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(getStorageToken()) private readonly storage: ThrottlerStorage,
  ) {}

  /**
   * Counts one refused credential presented by `client` (its address as Express
   * sees it) and returns the error to answer with: `refusal`, or a 429 once the
   * client is over the limit.
   */
  async refuse(client: string | undefined, refusal: RequestError, cause: RefusalCause): Promise<RequestError> {
    const address = clientKey(client);
    const windowMs = this.config.authFailureWindowS * 1000;
    let retryAfter = 0;
    try {
      const key = `${this.config.pubsubPrefix}:auth-failures:${address}`;
      const record = await this.storage.increment(key, windowMs, this.config.authFailureLimit, windowMs, THROTTLER_NAME);
      if (record.isBlocked) retryAfter = Math.max(1, record.timeToBlockExpire);
    } catch {
      // The storage falls back to memory on its own; anything else still leaves the client its 401, never a 5xx.
    }
    this.log.record(cause, address, retryAfter > 0);
    if (retryAfter === 0) return refusal;
    return RequestError.rateLimited('too many refused credentials from this address; retry later (a valid token is still accepted)', retryAfter);
  }

  onModuleDestroy() {
    this.log.flush(true);
  }
}

/**
 * The name a client is counted under: an IPv4 address as it is (also when
 * written IPv4-mapped, `::ffff:192.0.2.1`), an IPv6 address as its /64 network
 * (`2001:db8:0:1::/64`), since one host usually holds a whole /64 and could
 * otherwise pick a fresh address for every attempt.
 */
export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(plain);
  if (mapped) return mapped[1];
  if (!plain.includes(':')) return plain;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':').flatMap((g) => (g.includes('.') ? ['0', '0'] : [g])));
  const [head, tail] = plain.split('::');
  const first = groupsOf(head);
  const last = tail === undefined ? [] : groupsOf(tail);
  const groups = [...first, ...Array<string>(Math.max(0, 8 - first.length - last.length)).fill('0'), ...last];
  const network = groups.slice(0, 4).map((g) => (parseInt(g, 16) || 0).toString(16));
  return `${network.join(':')}::/64`;
}

/** One log line per cause per interval at most. */
export const REFUSAL_LOG_INTERVAL_MS = 60_000;
/** Distinct addresses tallied per cause and interval; more are counted but not told apart. */
const MAX_TALLIED_CLIENTS = 1000;

interface Tally {
  count: number;
  limited: number;
  clients: Map<string, number>;
}

/**
 * Refusals are logged as a tally, never one line per request: the first
 * refusal of a cause is written at once, and later ones are summed into at
 * most one line per cause per interval (`count`, how many answered 429, how
 * many client addresses, and the busiest address). The credential itself, or
 * any part of it or of its hash, is never written.
 */
export class RefusalLog {
  private readonly pending = new Map<RefusalCause, Tally>();
  private readonly lastLine = new Map<RefusalCause, number>();
  private timer?: NodeJS.Timeout;

  constructor(private readonly logger: Pick<Logger, 'warn'>) {}

  record(cause: RefusalCause, client: string, limited: boolean) {
    let tally = this.pending.get(cause);
    if (!tally) {
      tally = { count: 0, limited: 0, clients: new Map() };
      this.pending.set(cause, tally);
    }
    tally.count++;
    if (limited) tally.limited++;
    const seen = tally.clients.get(client);
    if (seen !== undefined || tally.clients.size < MAX_TALLIED_CLIENTS) tally.clients.set(client, (seen ?? 0) + 1);
    this.flush(false);
  }

  /** Writes the tallies whose interval is over (all of them when `all`), and arms the timer for the rest. */
  flush(all: boolean) {
    const now = Date.now();
    let nextDue = Infinity;
    for (const [cause, tally] of this.pending) {
      const due = (this.lastLine.get(cause) ?? -Infinity) + REFUSAL_LOG_INTERVAL_MS;
      if (all || due <= now) this.write(cause, tally, now);
      else nextDue = Math.min(nextDue, due);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!all && nextDue < Infinity) {
      this.timer = setTimeout(() => this.flush(false), nextDue - now + 1);
      this.timer.unref();
    }
  }

  private write(cause: RefusalCause, tally: Tally, now: number) {
    let top: [string, number] = ['', 0];
    for (const entry of tally.clients) if (entry[1] > top[1]) top = entry;
    this.logger.warn({
      msg: 'credentials refused',
      cause,
      count: tally.count,
      answered_429: tally.limited,
      clients: tally.clients.size,
      top_client: top[0],
      top_client_count: top[1],
    });
    this.pending.delete(cause);
    this.lastLine.set(cause, now);
  }
}
