import { Injectable } from '@nestjs/common';
import type * as PromClient from 'prom-client';

/*
 * The metric classes come from prom-client's own files, not its entry point: the entry point also
 * loads the default collectors, and with them OpenTelemetry's API (about 80 modules in all), at
 * every start. Those collectors load at the first scrape instead (see `text`).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- prom-client's entry point loads more than a start needs (see above) */
const prom = {
  Registry: require('prom-client/lib/registry') as typeof PromClient.Registry,
  Counter: require('prom-client/lib/counter') as typeof PromClient.Counter,
  Gauge: require('prom-client/lib/gauge') as typeof PromClient.Gauge,
  Histogram: require('prom-client/lib/histogram') as typeof PromClient.Histogram,
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** Seconds: from a cached read (~1 ms) to a long-poll that waited its whole minute. */
const DURATION_BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15, 60];

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx'];
const MAX_LABEL_SETS = 10_000;

type RequestLabels = Record<'method' | 'route' | 'status', string>;

/**
 * The figures `/metrics` serves (Prometheus text format), one registry per
 * application. Requests are recorded by the request observer; each module adds
 * the figures it owns with `gauge` (read when scraped: pools, waiters, queues)
 * or `counter`. Labels never carry a tenant, a project or an id, only bounded
 * names (the route pattern, the method, the status class, an event name).
 */
@Injectable()
export class Metrics {
  readonly registry = new prom.Registry();
  private readonly requests: PromClient.Counter<'method' | 'route' | 'status'>;
  private readonly durations: PromClient.Histogram<'method' | 'route' | 'status'>;
  private readonly rateLimited: PromClient.Counter<'route'>;
  private processFigures = false;
  private readonly labelSets = new Map<string, RequestLabels>();

  constructor() {
    const labelNames = ['method', 'route', 'status'] as const;
    this.requests = new prom.Counter({
      name: 'baton_http_requests_total',
      help: 'HTTP requests answered, by route pattern and status class',
      labelNames,
      registers: [this.registry],
    });
    this.durations = new prom.Histogram({
      name: 'baton_http_request_duration_seconds',
      help: 'Time from a request arriving to its answer finishing, by route pattern and status class',
      labelNames,
      buckets: DURATION_BUCKETS,
      registers: [this.registry],
    });
    this.rateLimited = new prom.Counter({
      name: 'baton_rate_limited_total',
      help: 'Requests refused with 429 (rate limit, refused-credential limit, budgets)',
      labelNames: ['route'],
      registers: [this.registry],
    });
  }

  /** One answered request. `route` is the pattern that matched (`/projects/:project_id`), never the raw path. */
  recordRequest(method: string, route: string, status: number, seconds: number): void {
    const labels = this.requestLabels(method, route, status);
    this.requests.inc(labels);
    this.durations.observe(labels, seconds);
    if (status === 429) this.rateLimited.inc({ route });
  }

  /**
   * The label set of a request, made once per method, route and status class: every request
   * records one, and a route's set is the same object from the second request on.
   */
  private requestLabels(method: string, route: string, status: number): RequestLabels {
    const statusClass = STATUS_CLASSES[Math.floor(status / 100)] ?? `${Math.floor(status / 100)}xx`;
    const key = `${method} ${statusClass} ${route}`;
    let labels = this.labelSets.get(key);
    if (!labels) {
      // Routes are patterns, so the set stays small; a cap keeps a surprise from growing it without end.
      if (this.labelSets.size >= MAX_LABEL_SETS) this.labelSets.clear();
      labels = { method, route, status: statusClass };
      this.labelSets.set(key, labels);
    }
    return labels;
  }

  /** A figure read at each scrape; `read` returns one value, or one per label value. */
  gauge(name: string, help: string, read: () => number | Record<string, number>, labelName = 'kind'): void {
    const registry = this.registry;
    if (registry.getSingleMetric(name)) return;
    new prom.Gauge({
      name,
      help,
      labelNames: [labelName],
      registers: [registry],
      collect() {
        const value = read();
        if (typeof value === 'number') this.set(value);
        else for (const [label, v] of Object.entries(value)) this.set({ [labelName]: label }, v);
      },
    });
  }

  /** A counter a module increments (`inc`), with at most one bounded label. */
  counter(name: string, help: string, labelName?: string): (label?: string) => void {
    const existing = this.registry.getSingleMetric(name) as PromClient.Counter<string> | undefined;
    const counter = existing ?? new prom.Counter({ name, help, labelNames: labelName ? [labelName] : [], registers: [this.registry] });
    return (label) => (labelName && label !== undefined ? counter.inc({ [labelName]: label }) : counter.inc());
  }

  /**
   * The registry in Prometheus text. The process figures (memory, CPU, event loop) are added at
   * the first scrape: prom-client's collectors load OpenTelemetry's API, which an instance that is
   * never scraped need not load at start.
   */
  text(): Promise<string> {
    if (!this.processFigures) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded at the first scrape (see above)
      const { collectDefaultMetrics } = require('prom-client') as typeof PromClient;
      collectDefaultMetrics({ register: this.registry, prefix: 'baton_' });
      this.processFigures = true;
    }
    return this.registry.metrics();
  }
}
