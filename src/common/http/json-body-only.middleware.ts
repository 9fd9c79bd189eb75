import type { NextFunction, Request, Response } from 'express';

/** The media types the JSON parser reads: every route but `/mcp` takes its body as JSON. */
export const JSON_MEDIA_TYPES = ['application/json', 'application/*+json'];

/**
 * Routes that take a plain HTML form (application/x-www-form-urlencoded) as
 * well as JSON: the pages that work without JavaScript post to these.
 */
export const FORM_ROUTES = ['/auth/magic', '/activate', '/__gate__', '/admin/login', '/oauth/interaction', '/workspace/accept', '/admin/console'];

/** Routes whose body is kept as received (a Buffer), for a signature computed over its exact bytes: the inbound webhooks. */
export const RAW_BODY_ROUTES = ['/webhooks/billing', '/webhooks/codehost-marketplace'];

/**
 * Routes whose body a library reads itself: the MCP SDK (`/mcp`) and the
 * OAuth authorization server (`/oauth/*`, which takes forms by its protocol).
 */
const OWN_BODY_ROUTES = /^\/(mcp|oauth)(\/|$)/;

/** Routes that take a file upload (multipart/form-data, read by multer on the route itself). */
export const MULTIPART_ROUTES = /^\/projects\/[^/]+\/documents\/upload$/;

export const NOT_JSON = 'request body must be JSON (Content-Type: application/json)';

/**
 * A request that carries a body the JSON parser did not read (text/plain, a
 * form, no Content-Type at all) is answered 415: left alone it would reach
 * validation as an empty object and be refused for fields it may well hold
 * (a form is read on FORM_ROUTES only). A request without a body (no length, or length 0) passes whatever its
 * Content-Type, so an action whose body is optional keeps working.
 */
export function jsonBodyOnly() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!hasBody(req) || req.is(JSON_MEDIA_TYPES) || OWN_BODY_ROUTES.test(req.path) || RAW_BODY_ROUTES.includes(req.path)) return next();
    if (req.is('multipart/form-data') && MULTIPART_ROUTES.test(req.path)) return next();
    if (req.is('application/x-www-form-urlencoded') && FORM_ROUTES.some((route) => req.path === route || req.path.startsWith(`${route}/`))) return next();
    res.status(415).json({ detail: NOT_JSON });
  };
}

function hasBody(req: Request): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}
