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

type Exporter = InstanceType<OtlpLibrary['OTLPLogExporter']>;

/**
 * Sends chunks of records with the library's OTLP/HTTP (JSON) log exporter,
 * one HTTP attempt per `send`. The library's own retry loop is taken out of
 * the exporter: the export pass decides when to retry, how long to wait and
 * when to give up, so `SERVICE_AI_LOG_OTEL_MAX_RETRIES` means what it says.
 * Its headers are pinned to the target's, so variables the library would
 * otherwise read from the process environment cannot add any.
 */
export class OtlpChunkSender {
  private readonly exporters = new Map<number, Exporter>();
  private readonly resource: ReadableLogRecord['resource'];
  private readonly scope: ReadableLogRecord['instrumentationScope'];

  constructor(
    private readonly library: OtlpLibrary,
    private readonly target: ExportTarget,
  ) {
    this.resource = library.resourceFromAttributes(target.resource);
    this.scope = { name: target.scope.name, version: target.scope.version };
  }

  /** One attempt to deliver `records`, given up after `timeoutMs`. */
  send(records: ExportLogRecord[], timeoutMs: number): Promise<SendOutcome> {
    const exporter = this.exporterFor(Math.max(1, Math.round(timeoutMs)));
    return new Promise<SendOutcome>((resolve) => {
      let settled = false;
      const finish = (outcome: SendOutcome) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const timer = setTimeout(() => finish({ ok: false, error: `timed out after ${Math.round(timeoutMs)} ms` }), timeoutMs);
      try {
        exporter.export(
          records.map((r) => this.toReadable(r)),
          (result) => finish(result.code === 0 ? { ok: true } : { ok: false, error: describeFailure(result.error) }),
        );
      } catch (error) {
        finish({ ok: false, error: describeFailure(error) });
      }
    });
  }

  /** Lets go of the exporters; an attempt still in flight ends on its own timeout. */
  close(): void {
    for (const exporter of this.exporters.values()) void exporter.shutdown().catch(() => undefined);
    this.exporters.clear();
  }

  private exporterFor(timeoutMillis: number): Exporter {
    let exporter = this.exporters.get(timeoutMillis);
    if (!exporter) {
      exporter = new this.library.OTLPLogExporter({
        url: this.target.endpoint,
        headers: { ...this.target.headers },
        timeoutMillis,
        // Room for a request that outlived its attempt (a slow answer): it must not block the retry.
        concurrencyLimit: 8,
        compression: 'none' as never,
        ...(this.target.lookup ? { httpAgentOptions: { keepAlive: true, lookup: this.target.lookup } as never } : {}),
      });
      pinTransport(exporter, this.target.headers);
      this.exporters.set(timeoutMillis, exporter);
    }
    return exporter;
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

interface HttpTransportShape {
  send: (...args: unknown[]) => unknown;
  _transport?: HttpTransportShape;
  _parameters?: { headers?: () => Promise<Record<string, string>>; url?: string };
  _utils?: unknown;
}

/**
 * Reaches into the exporter's delegate (a stable shape across the 0.x
 * releases Baton supports, checked by libs/otel-export tests): unwraps the
 * retrying transport and fixes the headers. When the shape is not found the
 * exporter is used as it is: still correct, only with the library's retries.
 */
function pinTransport(exporter: Exporter, headers: Record<string, string>): void {
  const delegate = (exporter as unknown as { _delegate?: { _transport?: HttpTransportShape } })._delegate;
  const outer = delegate?._transport;
  if (!delegate || !outer) return;
  if (outer._transport && typeof outer._transport.send === 'function') delegate._transport = outer._transport;
  const http = delegate._transport;
  if (http?._parameters && typeof http._parameters.headers === 'function') {
    const fixed = { ...headers, 'Content-Type': 'application/json' };
    http._parameters.headers = async () => ({ ...fixed });
  }
  // The transport loads node:http with a dynamic import() on first use; handing it the
  // module up front spares that step (and works where dynamic import is unavailable).
  if (http && http._utils === null && typeof http._parameters?.url === 'string') {
    const https = new URL(http._parameters.url).protocol === 'https:';
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- only the module of the endpoint's scheme loads, when the exporter is set up
    const mod = (https ? require('node:https') : require('node:http')) as typeof import('node:http');
    http._utils = { agent: new mod.Agent({ keepAlive: true }), request: mod.request };
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
