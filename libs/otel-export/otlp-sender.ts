import { Agent as HttpAgent, ClientRequest, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ReadableLogRecord } from '@opentelemetry/sdk-logs';
import type { OtlpLibrary } from './loader';

/** One log record to export, in plain values (the library's types stay inside this file). */
export interface ExportLogRecord {
  /** When it happened, in milliseconds since the epoch. */
  timeMs: number;
  severityNumber: number;
  severityText: string;
  eventName: string;
  body: string;
  attributes: Record<string, string | number | boolean>;
}

/** Where and as whom records are sent. */
export interface ExportTarget {
  /** Full OTLP/HTTP logs URL (…/v1/logs). */
  endpoint: string;
  /** Sent with every request, exactly these (plus Content-Type); the only place a credential lives. */
  headers: Record<string, string>;
  /** Resource attributes: service.name and, when asked for, service.otel_sink_hint. */
  resource: Record<string, string>;
  /** Instrumentation scope of every record. */
  scope: { name: string; version: string };
  /** Answers the connection's DNS query (the address an outbound guard checked); the system resolver when absent. */
  lookup?: LookupFunction;
}

export type SendOutcome = { ok: true } | { ok: false; error: string };

/**
 * Sends chunks of records to an OTLP/HTTP logs endpoint, one HTTP request per
 * `send`: the body is written by OpenTelemetry's own JSON serializer
 * (`JsonLogsSerializer`, public API of `@opentelemetry/otlp-transformer`), the
 * request is sent here with node:http(s). So there is no retry loop below the
 * export pass, which decides when to retry, how long to wait and when to give
 * up (`SERVICE_AI_LOG_OTEL_MAX_RETRIES` means what it says), and the headers
 * are exactly the target's plus `Content-Type`: no `OTEL_*` variable of the
 * process can add any.
 */
export class OtlpChunkSender {
  private readonly resource: ReadableLogRecord['resource'];
  private readonly scope: ReadableLogRecord['instrumentationScope'];
  private readonly url: URL;
  private readonly request: typeof httpRequest;
  /** Keeps the connection to the collector open between chunks. */
  private readonly agent: HttpAgent;
  private readonly headers: Record<string, string>;
  private readonly inFlight = new Set<ClientRequest>();

  constructor(
    private readonly library: OtlpLibrary,
    target: ExportTarget,
  ) {
    this.resource = library.resourceFromAttributes(target.resource);
    this.scope = { name: target.scope.name, version: target.scope.version };
    this.url = new URL(target.endpoint);
    const https = this.url.protocol === 'https:';
    this.request = https ? httpsRequest : httpRequest;
    // The connection asks `target.lookup` for its address: the one an outbound guard checked.
    const agentOptions = { keepAlive: true, ...(target.lookup ? { lookup: target.lookup } : {}) };
    this.agent = https ? new HttpsAgent(agentOptions) : new HttpAgent(agentOptions);
    this.headers = { ...target.headers, 'Content-Type': 'application/json' };
  }

  /** One attempt to deliver `records`, given up (its request aborted) after `timeoutMs`. */
  send(records: ExportLogRecord[], timeoutMs: number): Promise<SendOutcome> {
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      let request: ClientRequest | undefined;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (request) {
          this.inFlight.delete(request);
          // An attempt given up (timed out, or an answer still trickling in) frees its connection.
          if (!outcome.ok) request.destroy();
        }
        resolve(outcome);
      };
      const timer = setTimeout(() => finish({ ok: false, error: `timed out after ${Math.round(timeoutMs)} ms` }), timeoutMs);
      try {
        const body = this.library.JsonLogsSerializer.serializeRequest(records.map((r) => this.toReadable(r)));
        if (!body) throw new Error('the OTLP serializer wrote no request body');
        const headers = { ...this.headers, 'Content-Length': String(body.byteLength) };
        request = this.request(this.url, { method: 'POST', agent: this.agent, headers }, (response) => {
          const status = response.statusCode ?? 0;
          // The answer's body is not needed (a partial success is not acted on): drained, not kept.
          response.resume();
          response.on('end', () => finish(status >= 200 && status < 300 ? { ok: true } : { ok: false, error: `HTTP ${status}` }));
          response.on('error', (error) => finish({ ok: false, error: describeFailure(error) }));
        });
        this.inFlight.add(request);
        request.on('error', (error) => finish({ ok: false, error: describeFailure(error) }));
        request.end(body);
      } catch (error) {
        finish({ ok: false, error: describeFailure(error) });
      }
    });
  }

  /** Lets go of the connections; an attempt still in flight is aborted. */
  close(): void {
    for (const request of this.inFlight) request.destroy();
    this.inFlight.clear();
    this.agent.destroy();
  }

  private toReadable(record: ExportLogRecord): ReadableLogRecord {
    const time: [number, number] = [Math.floor(record.timeMs / 1000), (record.timeMs % 1000) * 1_000_000];
    return {
      hrTime: time,
      hrTimeObserved: time,
      severityNumber: record.severityNumber,
      severityText: record.severityText,
      eventName: record.eventName,
      body: record.body,
      resource: this.resource,
      instrumentationScope: this.scope,
      attributes: record.attributes,
      droppedAttributesCount: 0,
    };
  }
}

/** A short reason for a failed attempt: HTTP status or error code, never a header or a body. */
export function describeFailure(error: unknown): string {
  if (!error) return 'export failed';
  const e = error as { code?: unknown; message?: unknown; name?: unknown };
  if (typeof e.code === 'number') return `HTTP ${e.code}`;
  if (typeof e.code === 'string' && /^[A-Z_0-9]+$/.test(e.code)) return e.code;
  if (typeof e.message === 'string' && /timed out/i.test(e.message)) return 'timed out';
  return typeof e.name === 'string' && e.name !== 'Error' ? e.name : 'export failed';
}
