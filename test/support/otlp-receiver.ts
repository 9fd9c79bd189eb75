import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

/** One log record as an OTLP/HTTP JSON request carries it, decoded. */
export interface ReceivedRecord {
  timeUnixNano: string;
  severityNumber?: number;
  severityText?: string;
  eventName?: string;
  body?: string;
  attributes: Record<string, string | number | boolean>;
  resource: Record<string, string | number | boolean>;
  scope: { name?: string; version?: string };
}

export interface ReceivedRequest {
  at: number;
  path: string;
  headers: IncomingHttpHeaders;
  records: ReceivedRecord[];
  /** Order in which this chunk (identified by its first record's event id) was first seen, from 0. */
  chunkOrdinal: number;
  status: number;
}

/**
 * Decides the answer to a request: a status code (2xx accepts), optionally after a delay, or
 * trickled: headers at once, then a byte every 100 ms for `trickleMs`, so the connection never
 * goes idle while the answer takes long.
 */
export type ReceiverBehaviour = (request: { chunkOrdinal: number; attempt: number; records: ReceivedRecord[] }) => {
  status: number;
  delayMs?: number;
  trickleMs?: number;
};

export const accept: ReceiverBehaviour = () => ({ status: 200 });

/**
 * Refuses every second distinct chunk it sees from now on (the 2nd, 4th, ...)
 * with `status`, on every attempt; a chunk is known by its first record's event id.
 */
export function failEverySecondChunk(status = 500): ReceiverBehaviour {
  const order = new Map<string, number>();
  return ({ records }) => {
    const key = String(records[0]?.attributes['baton.event.id']);
    if (!order.has(key)) order.set(key, order.size);
    return { status: (order.get(key) as number) % 2 === 1 ? status : 200 };
  };
}

type AnyValue = { stringValue?: string; intValue?: number | string; doubleValue?: number; boolValue?: boolean };

function plain(value: AnyValue | undefined): string | number | boolean {
  if (!value) return '';
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.boolValue !== undefined) return value.boolValue;
  return '';
}

function attributes(list: { key: string; value: AnyValue }[] | undefined): Record<string, string | number | boolean> {
  return Object.fromEntries((list ?? []).map((a) => [a.key, plain(a.value)]));
}

/**
 * A local OTLP/HTTP logs receiver on 127.0.0.1: decodes the JSON encoding the
 * exporter sends, records every request, and answers as `behaviour` says.
 * `accepted` holds the records of the requests it answered with 2xx, in order.
 */
export class OtlpReceiver {
  readonly requests: ReceivedRequest[] = [];
  readonly accepted: ReceivedRecord[] = [];
  behaviour: ReceiverBehaviour = accept;
  private server?: Server;
  private readonly ordinals = new Map<string, number>();
  private readonly attempts = new Map<number, number>();

  get url(): string {
    return `http://127.0.0.1:${(this.server?.address() as AddressInfo).port}`;
  }

  /** The logs endpoint (what SERVICE_AI_LOG_OTEL_ENDPOINT names). */
  get endpoint(): string {
    return `${this.url}/v1/logs`;
  }

  /** Requests the receiver accepted. */
  get acceptedRequests(): ReceivedRequest[] {
    return this.requests.filter((r) => r.status >= 200 && r.status < 300);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const parts: Buffer[] = [];
      req.on('data', (c: Buffer) => parts.push(c));
      req.on('end', () => {
        let raw = Buffer.concat(parts);
        if (req.headers['content-encoding'] === 'gzip') raw = gunzipSync(raw);
        const records = decode(raw.toString('utf8'));
        const key = String(records[0]?.attributes['baton.event.id'] ?? `request-${this.requests.length}`);
        if (!this.ordinals.has(key)) this.ordinals.set(key, this.ordinals.size);
        const chunkOrdinal = this.ordinals.get(key) as number;
        const attempt = (this.attempts.get(chunkOrdinal) ?? 0) + 1;
        this.attempts.set(chunkOrdinal, attempt);
        const { status, delayMs, trickleMs } = this.behaviour({ chunkOrdinal, attempt, records });
        const entry: ReceivedRequest = { at: Date.now(), path: req.url ?? '', headers: req.headers, records, chunkOrdinal, status };
        this.requests.push(entry);
        const answer = () => {
          if (status >= 200 && status < 300) this.accepted.push(...records);
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(status >= 200 && status < 300 ? '{}' : '{"code":13,"message":"refused by the test receiver"}');
        };
        if (trickleMs) {
          res.writeHead(status, { 'content-type': 'application/json' });
          const started = Date.now();
          const tick = setInterval(() => {
            if (res.destroyed || Date.now() - started >= trickleMs) {
              clearInterval(tick);
              if (!res.destroyed) {
                if (status >= 200 && status < 300) this.accepted.push(...records);
                res.end('{}');
              }
              return;
            }
            res.write(' ');
          }, 100);
        } else if (delayMs) setTimeout(answer, delayMs);
        else answer();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return this;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

function decode(text: string): ReceivedRecord[] {
  const body = JSON.parse(text) as {
    resourceLogs?: {
      resource?: { attributes?: { key: string; value: AnyValue }[] };
      scopeLogs?: {
        scope?: { name?: string; version?: string };
        logRecords?: {
          timeUnixNano: string | number;
          severityNumber?: number;
          severityText?: string;
          eventName?: string;
          body?: AnyValue;
          attributes?: { key: string; value: AnyValue }[];
        }[];
      }[];
    }[];
  };
  const out: ReceivedRecord[] = [];
  for (const rl of body.resourceLogs ?? []) {
    const resource = attributes(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) {
      for (const lr of sl.logRecords ?? []) {
        out.push({
          timeUnixNano: String(lr.timeUnixNano),
          severityNumber: lr.severityNumber,
          severityText: lr.severityText,
          eventName: lr.eventName,
          body: lr.body ? String(plain(lr.body)) : undefined,
          attributes: attributes(lr.attributes),
          resource,
          scope: sl.scope ?? {},
        });
      }
    }
  }
  return out;
}
