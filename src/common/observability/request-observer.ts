import { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { Metrics } from './metrics';
import { Tracing } from './tracing';
import { requestIdFor, withRequestId } from './request-context';

const ids = new WeakMap<Request, string>();

/** Probes and scrapes that answer well are not worth a log line each; their failures are. */
const QUIET = /^\/(health(\/.*)?|metrics)$/;

/**
 * First of all middleware: gives the request its id (the caller's `X-Request-Id`
 * when it is a plain token, else a new one) and answers it in `X-Request-Id`;
 * when the answer is done, records it in the metrics and writes one access-log
 * line (method, route pattern, path without its query, status, time, bytes).
 */
export function observeRequests(metrics: Metrics, tracing: Tracing, logger: LoggerService, accessLog: boolean): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const id = requestIdFor(req.headers['x-request-id']);
    ids.set(req, id);
    res.setHeader('X-Request-Id', id);
    const span = tracing.startRequest(req.method, req.headers);
    res.once('close', () => {
      const seconds = (performance.now() - started) / 1000;
      const route = routeOf(req);
      const status = res.writableFinished ? res.statusCode : 499;
      metrics.recordRequest(req.method, route, status, seconds);
      span?.end(route, status, id);
      if (!accessLog) return;
      const path = pathOf(req.originalUrl);
      if (status < 400 && QUIET.test(path)) return;
      logger.log(
        {
          msg: 'request',
          method: req.method,
          route,
          path,
          status,
          duration_ms: Math.round(seconds * 10000) / 10,
          bytes: Number(res.getHeader('content-length') ?? 0) || undefined,
          request_id: id,
          trace_id: span?.traceId,
        },
        'http',
      );
    });
    next();
  };
}

/**
 * After body parsing (whose stream callbacks lose async context): the rest of the
 * request runs with its id, so every log line it writes carries `request_id`.
 */
export function requestIdScope(): RequestHandler {
  return (req: Request, _res: Response, next: NextFunction) => {
    const id = ids.get(req);
    if (id) withRequestId(id, next);
    else next();
  };
}

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/** The route pattern that matched (`/projects/:project_id`), the mount of a static router, or `other`: never a raw path. */
function routeOf(req: Request): string {
  const pattern = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  return req.baseUrl || 'other';
}
