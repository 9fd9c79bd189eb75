import type { NextFunction, Request, Response } from 'express';

/** The media types the JSON parser reads: every route but `/mcp` takes its body as JSON. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

export const NOT_JSON = 'request body must be JSON (Content-Type: application/json)';

/**
 * A request that carries a body the JSON parser did not read (text/plain, a
 * form, no Content-Type at all) is answered 415: left alone it would reach
 * validation as an empty object and be refused for fields it may well hold.
 * A request without a body (no length, or length 0) passes whatever its
 * Content-Type, so an action whose body is optional keeps working. `/mcp` is
 * left to the MCP SDK, which answers its own transport's errors.
 */
export function jsonBodyOnly() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req) || req.is(JSON_MEDIA_TYPES) || /^\/mcp(\/|$)/.test(req.path)) return next();
    res.status(415).json({ detail: NOT_JSON });
  };
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}
