import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import express, { NextFunction, Request, Response } from 'express';
import { AppModule } from './app.module';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { requestDeadlines } from './common/errors/request-deadline';
import { JsonLogger } from './common/logging/json-logger';
import { InputValidationPipe } from './common/validation/input-validation.pipe';
import { JSON_TOO_DEEP, nestsDeeperThan } from './common/validation/json-depth';
import { AppConfig } from './config/app-config';

export interface CreateAppOptions {
  /** Where log lines go (tests capture them). Default: stdout. */
  logWrite?: (line: string) => void;
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
  app.useWebSocketAdapter(new WsAdapter(app));
  app.use(express.json({ limit: config.bodyLimitBytes, type: ['application/json', 'application/*+json'], verify: refuseDeepJson }));
  app.use(bodyErrorHandler);
  // After body parsing, so that routing and the handler run inside the scope; the tenant guard fills it in.
  app.use(requestDeadlines(config.requestTimeoutSeconds * 1000));
  app.useGlobalPipes(new InputValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableShutdownHooks();
  return app;
}

/** Runs on the raw body before it is parsed: JSON nested deeper than MAX_JSON_DEPTH never reaches a handler. */
function refuseDeepJson(_req: Request, _res: Response, body: Buffer): void {
  if (nestsDeeperThan(body)) throw Object.assign(new Error(JSON_TOO_DEEP), { status: 400, type: 'entity.too.deep' });
}

/**
 * Body-parser failures happen before routing; they get the same `{detail}` shape as everything
 * else, except that a body too deep for `/mcp` is answered as a JSON-RPC invalid request.
 */
function bodyErrorHandler(error: Error & { status?: number; type?: string }, req: Request, res: Response, next: NextFunction) {
  if (!error) return next();
  if (error.type === 'entity.too.deep') {
    if (/^\/mcp(\/|$)/.test(req.path)) return void res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: JSON_TOO_DEEP }, id: null });
    return void res.status(400).json({ detail: JSON_TOO_DEEP });
  }
  if (error.type === 'entity.too.large') return void res.status(413).json({ detail: 'request body is too large' });
  if (error.type === 'entity.parse.failed') return void res.status(400).json({ detail: 'request body is not valid JSON' });
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return void res.status(415).json({ detail: 'unsupported request body encoding' });
  }
  if (error.status && error.status >= 400 && error.status < 500) return void res.status(error.status).json({ detail: 'malformed request body' });
  next(error);
}
