import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import express, { Request, Response } from 'express';
import type { Server } from 'node:http';
import { AppModule } from './app.module';
import { bodyErrorHandler } from './common/errors/body-error.handler';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { FORM_ROUTES, JSON_MEDIA_TYPES, jsonBodyOnly, RAW_BODY_ROUTES } from './common/http/json-body-only.middleware';
import { signedCookieParser } from './common/http/signed-cookies.middleware';
import { requestDeadlines, watchedRequests } from './common/errors/request-deadline';
import { JsonLogger } from './common/logging/json-logger';
import { Metrics } from './common/observability/metrics';
import { Tracing } from './common/observability/tracing';
import { observeRequests, requestIdScope } from './common/observability/request-observer';
import { InputValidationPipe } from './common/validation/input-validation.pipe';
import { OAuthRoutes } from './modules/oauth-server/oauth-routes.middleware';
import { JSON_TOO_DEEP, nestsDeeperThan } from './common/validation/json-depth';
import { AppConfig } from './config/app-config';
import { WebSessions } from './modules/accounts/web-sessions.service';
import { DASHBOARD_PATH, dashboardRouter } from './modules/dashboard/dashboard-static';
import { GatedWsAdapter } from './modules/site-gate/gated-ws-adapter';
import { siteGateMiddleware } from './modules/site-gate/site-gate.middleware';
import { SiteGate } from './modules/site-gate/site-gate.service';
import { NOT_CAPPED, StorageCapInterceptor } from './modules/billing/storage-cap.interceptor';
import { interceptWriteRoutes } from './common/http/write-route-interceptor';
import { trackConnections } from './common/lifecycle/shutdown-drain';

export interface CreateAppOptions {
  /** Where log lines go (tests capture them). Default: stdout. */
  logWrite?: (line: string) => void;
  /** Whether Nest closes the app itself on SIGTERM/SIGINT (tests, benchmarks); src/main.ts drains first instead. */
  shutdownHooks?: boolean;
}

/** Builds the whole application: the same pipeline for `npm start`, tests and benchmarks. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<INestApplication> {
  const logger = new JsonLogger(config.logLevel, options.logWrite);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bodyParser: false,
    logger,
    abortOnError: false,
  });
  app.disable('x-powered-by');
  // The storage cap concerns writes that add project data: it runs on the routes a POST, PUT or PATCH can reach, but those it never caps (MCP, usage, billing, sign-in, people), decided here once.
  interceptWriteRoutes(app, app.get(StorageCapInterceptor), NOT_CAPPED);
  // Before anything else: every request gets its id (X-Request-Id), its access-log line and its metrics.
  app.use(observeRequests(app.get(Metrics), app.get(Tracing), logger, config.accessLog));
  // The site gate comes first: nothing behind it (body parsing, routing, /mcp, the WebSocket) runs for a request it refuses.
  const gate = app.get(SiteGate);
  app.use(siteGateMiddleware(gate));
  app.useWebSocketAdapter(new GatedWsAdapter(app, gate));
  // The OAuth authorization server reads its own request bodies (forms and JSON): it goes before the parsers.
  app.use(app.get(OAuthRoutes).middleware());
  // Signed cookies (the web session) verify with SESSION_SECRET or an earlier one still accepted; each value once.
  app.use(signedCookieParser([config.sessionSecret, ...config.previousSessionSecrets]));
  // The browser dashboard's static files, behind the site gate and before Nest's routing (and its guards): see dashboard-static.ts.
  app.use(DASHBOARD_PATH, dashboardRouter(config, app.get(WebSessions)));
  // Webhooks are verified on the exact bytes received: their routes keep the raw body, and the JSON parser then leaves it alone.
  app.use(RAW_BODY_ROUTES, express.raw({ type: () => true, limit: config.bodyLimitBytes }));
  app.use(express.json({ limit: config.bodyLimitBytes, type: JSON_MEDIA_TYPES, verify: refuseDeepJson }));
  // Plain HTML forms (sign-in, consent, device approval, the site gate) post to their own routes only.
  app.use(FORM_ROUTES, express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  app.use(bodyErrorHandler(logger));
  app.use(jsonBodyOnly());
  // After body parsing, so that routing and the handler run inside the scope; the tenant guard fills it in.
  app.use(requestDeadlines(config.requestTimeoutSeconds * 1000));
  app
    .get(Metrics)
    .gauge(
      'baton_deadline_watched_requests',
      'Requests watched for their deadline: begun since the last check, and open ones filed under the check their deadline falls at',
      watchedRequests,
      'state',
    );
  app.use(requestIdScope());
  app.useGlobalPipes(new InputValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  if (options.shutdownHooks !== false) app.enableShutdownHooks();
  keepIdleConnections(app.getHttpServer() as Server);
  trackConnections(app.getHttpServer() as Server);
  return app;
}

/**
 * An idle keep-alive connection stays open 65 s, longer than the 60 s idle timeout of common load
 * balancers and than clients keep one: with Node's default (5 s) a client, or a balancer, may send
 * its next request on a connection Baton is closing at that moment, and see it reset. Headers may
 * take a little longer still, as Node asks.
 */
function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

/** Runs on the raw body before it is parsed: JSON nested deeper than MAX_JSON_DEPTH never reaches a handler. */
function refuseDeepJson(_req: Request, _res: Response, body: Buffer): void {
  if (nestsDeeperThan(body)) throw Object.assign(new Error(JSON_TOO_DEEP), { status: 400, type: 'entity.too.deep' });
}
