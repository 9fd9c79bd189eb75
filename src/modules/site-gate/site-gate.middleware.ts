import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { safeRedirectPath } from '../../common/http/safe-redirect';
import { HTML_PAGE_HEADERS } from '../../common/http/html-page';
import { gatePage } from './site-gate.page';
import { GATE_COOKIE, GATE_PATH, isGatePath, SiteGate } from './site-gate.service';

const GATE_BODY_LIMIT = '8kb';
const REQUIRED = `this site needs its password: POST {"password": "..."} to ${GATE_PATH} and send back the ${GATE_COOKIE} cookie it sets`;

/**
 * The site gate in front of every route (registered before body parsing and
 * routing): a request without the gate cookie is answered 401, with the
 * password page for a browser and `{detail}` for an API client. The gate's
 * own route, GET and POST /__gate__, is served here too.
 */
export function siteGateMiddleware(gate: SiteGate): RequestHandler {
  const parseForm = express.urlencoded({ extended: false, limit: GATE_BODY_LIMIT });
  const parseJson = express.json({ limit: GATE_BODY_LIMIT });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!gate.enabled) return next();
    if (isGatePath(req.path)) return void serveGate(gate, req, res, [parseForm, parseJson]).catch(next);
    if (gate.admits(req.path, req.headers.cookie)) return next();
    res.setHeader('Cache-Control', 'no-store');
    if (wantsHtml(req))
      return void res
        .status(401)
        .set(HTML_PAGE_HEADERS)
        .send(gatePage(req.method === 'GET' ? req.originalUrl : '/'));
    res.status(401).json({ detail: REQUIRED, code: 'SITE_PASSWORD_REQUIRED' });
  };
}

async function serveGate(gate: SiteGate, req: Request, res: Response, parsers: RequestHandler[]): Promise<void> {
  if (req.method === 'GET' || req.method === 'HEAD') {
    res
      .status(200)
      .set(HTML_PAGE_HEADERS)
      .send(gatePage(safeRedirectPath(req.query.next) ?? '/'));
    return;
  }
  if (req.method !== 'POST') {
    res
      .status(405)
      .set('Allow', 'GET, HEAD, POST')
      .json({ detail: `${GATE_PATH} takes GET (the password page) or POST (the password)` });
    return;
  }
  const form = Boolean(req.is('application/x-www-form-urlencoded'));
  if (!form && !req.is('application/json')) {
    res.status(415).json({ detail: `${GATE_PATH} takes a form (application/x-www-form-urlencoded) or JSON {"password": "..."}` });
    return;
  }
  try {
    for (const parse of parsers) await run(parse, req, res);
  } catch (error) {
    const status = (error as { status?: number }).status === 413 ? 413 : 400;
    res.status(status).json({ detail: status === 413 ? 'request body is too large' : 'request body is not valid JSON or form data' });
    return;
  }
  const body = (req.body ?? {}) as { password?: unknown; next?: unknown };
  const next = safeRedirectPath(body.next) ?? '/';
  const outcome = await gate.attempt(body.password, req.ip);
  res.setHeader('Cache-Control', 'no-store');
  const answer = (status: number, detail: string) =>
    form ? res.status(status).set(HTML_PAGE_HEADERS).send(gatePage(next, detail)) : res.status(status).json({ detail, ...(status === 429 ? { code: 'RATE_LIMITED' } : {}) });
  switch (outcome.kind) {
    case 'missing':
      answer(400, 'password is required');
      return;
    case 'wrong':
      answer(401, 'wrong site password');
      return;
    case 'limited':
      res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
      answer(429, `too many password attempts from this address; retry in ${outcome.retryAfterSeconds} s`);
      return;
    case 'open':
      res.cookie(GATE_COOKIE, outcome.cookie, gate.cookieOptions());
      if (form) res.redirect(303, next);
      else res.status(200).json({ detail: 'site password accepted', next });
      return;
  }
}

/** A browser navigating asks for HTML; API clients ask for JSON or anything. */
function wantsHtml(req: Request): boolean {
  return /\btext\/html\b/i.test(req.headers.accept ?? '');
}

function run(middleware: RequestHandler, req: Request, res: Response): Promise<void> {
  return new Promise((resolve, reject) => middleware(req, res, (error?: unknown) => (error ? reject(error as Error) : resolve())));
}
