import { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { JSON_TOO_DEEP } from '../validation/json-depth';
import { toErrorResponse } from './error-response';

type BodyError = Error & { status?: number; type?: string };

/**
 * Body-parser failures happen before routing, so Nest's exception filter never
 * sees them; they get the same `{detail}` shape as everything else, except that
 * a body too deep for `/mcp` is answered as a JSON-RPC invalid request. Anything
 * else is unexpected and answered like every unexpected error: 500 with an
 * `error_id` under which the stack is logged (Express's own handler would send
 * an HTML page with neither).
 */
export function bodyErrorHandler(logger: LoggerService) {
  return (error: BodyError | undefined, req: Request, res: Response, next: NextFunction): void => {
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
    const { status, body, unexpected } = toErrorResponse(error);
    logger.error({ msg: 'unexpected error', error_id: body.error_id, stack: unexpected?.stack }, 'http');
    if (res.headersSent) return void res.end();
    res.status(status).json(body);
  };
}
