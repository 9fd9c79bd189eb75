import { OnApplicationShutdown } from '@nestjs/common';
import type { Span, Tracer } from '@opentelemetry/api';
import type { TracerProvider } from '@opentelemetry/sdk-trace';
import type { IncomingHttpHeaders } from 'node:http';

/** What a request's span is told when its answer is done. */
export interface RequestSpan {
  /** The trace id, for the request's log lines. */
  traceId: string;
  end(route: string, status: number, requestId: string): void;
}

/**
 * OpenTelemetry traces, off unless `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (or
 * `OTEL_EXPORTER_OTLP_ENDPOINT`, to which `/v1/traces` is added) names an OTLP/HTTP
 * receiver (see tracesEndpoint). Each request is one server span named by its route pattern, a child of
 * the caller's `traceparent` when it sends one (W3C trace context), exported in
 * batches. The SDK is loaded only when tracing is on: an instance without it never
 * loads an OpenTelemetry trace module.
 */
export class Tracing implements OnApplicationShutdown {
  private readonly tracer?: Tracer;
  private readonly provider?: TracerProvider;
  private readonly parent?: (headers: IncomingHttpHeaders) => unknown;

  constructor(endpoint: string | undefined, version: string, serviceName = 'baton') {
    if (!endpoint) return;
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded only when tracing is configured */
    const api = require('@opentelemetry/api') as typeof import('@opentelemetry/api');
    const { TracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace') as typeof import('@opentelemetry/sdk-trace');
    const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
    const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
    const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
    /* eslint-enable @typescript-eslint/no-require-imports */
    this.provider = new TracerProvider({
      resource: resourceFromAttributes({ 'service.name': serviceName, 'service.version': version }),
      spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: endpoint }) })],
    });
    this.tracer = this.provider.getTracer('baton', version);
    const propagator = new W3CTraceContextPropagator();
    this.parent = (headers) => propagator.extract(api.ROOT_CONTEXT, headers, api.defaultTextMapGetter);
    this.kind = api.SpanKind.SERVER;
    this.errorCode = api.SpanStatusCode.ERROR;
  }

  private kind = 1;
  private errorCode = 2;

  get enabled(): boolean {
    return this.tracer !== undefined;
  }

  /** Opens the span of one request (undefined when tracing is off). */
  startRequest(method: string, headers: IncomingHttpHeaders): RequestSpan | undefined {
    if (!this.tracer || !this.parent) return undefined;
    const span: Span = this.tracer.startSpan(method, { kind: this.kind, attributes: { 'http.request.method': method } }, this.parent(headers) as never);
    return {
      traceId: span.spanContext().traceId,
      end: (route, status, requestId) => {
        span.updateName(`${method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': status, 'baton.request_id': requestId });
        if (status >= 500) span.setStatus({ code: this.errorCode });
        span.end();
      },
    };
  }

  /** Sends what is still batched before the process stops. */
  async onApplicationShutdown(): Promise<void> {
    await this.provider?.shutdown();
  }
}

/** The OTLP/HTTP traces URL: the traces endpoint as given, else the base endpoint with `/v1/traces` (OpenTelemetry's rule). */
export function tracesEndpoint(traces: string | undefined, base: string | undefined): string | undefined {
  if (traces) return traces;
  if (base) return `${base.replace(/\/$/, '')}/v1/traces`;
  return undefined;
}
