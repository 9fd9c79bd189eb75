import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { NestExpressApplication } from '@nestjs/platform-express';
import { WsAdapter } from '@nestjs/platform-ws';
import express, { Request, Response } from 'express';
import { AppModule } from './app.module';
import { bodyErrorHandler } from './common/errors/body-error.handler';
import { HttpExceptionFilter } from './common/errors/http-exception.filter';
import { JSON_MEDIA_TYPES, jsonBodyOnly } from './common/http/json-body-only.middleware';
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
  app.use(express.json({ limit: config.bodyLimitBytes, type: JSON_MEDIA_TYPES, verify: refuseDeepJson }));
  app.use(bodyErrorHandler(logger));
  app.use(jsonBodyOnly());
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
