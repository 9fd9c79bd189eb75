import cookieParser, { JSONCookies, signedCookie } from 'cookie-parser';
import type { NextFunction, Request, RequestHandler, Response } from 'express';

/** Signed values whose signature held, remembered at once; the map is emptied when full. */
const MAX_REMEMBERED = 10_000;

/**
 * cookie-parser, with each signed value's check remembered: `req.cookies`,
 * `req.signedCookies` and `req.secret` are exactly what `cookieParser(secrets)`
 * makes of the request, but a signed value seen before (a web session's cookie
 * on every request of that browser) costs a map lookup instead of an HMAC and
 * its buffers, which made a cookie-authenticated read about a tenth dearer than
 * the same read with a bearer token (bench/read.js). Only values whose
 * signature held are remembered: a value that held with these secrets always
 * will, and a forged one costs its HMAC each time, as before.
 */
export function signedCookieParser(secrets: string[]): RequestHandler {
  const parse = cookieParser();
  const verified = new Map<string, string>();
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.cookies) return next();
    parse(req, res, () => {
      req.secret = secrets[0];
      const cookies: Record<string, unknown> = req.cookies;
      const signed: Record<string, string | false> = Object.create(null);
      for (const name of Object.keys(cookies)) {
        const value = cookies[name];
        if (typeof value !== 'string' || !value.startsWith('s:')) continue;
        let plain: string | false | undefined = verified.get(value);
        if (plain === undefined) {
          plain = signedCookie(value, secrets);
          if (typeof plain === 'string') {
            if (verified.size >= MAX_REMEMBERED) verified.clear();
            verified.set(value, plain);
          }
        }
        signed[name] = plain ?? false;
        delete cookies[name];
      }
      req.signedCookies = JSONCookies(signed as Record<string, string>);
      next();
    });
  };
}
