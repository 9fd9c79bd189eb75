import express, { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppConfig } from '../../config/app-config';
import { WebSessions } from '../accounts/web-sessions.service';

/** Where Baton serves the browser dashboard (apps/dashboard, built with Vite to static files). */
export const DASHBOARD_PATH = '/dashboard';

/** Vite names every asset after its content: a changed file is a new URL, so a browser may keep one for a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

const NOT_BUILT = 'the dashboard is not built: run `npm run build` (or `npm run build -w apps/dashboard`) in the Baton checkout, then reload';

/** Headers of the app's page: its scripts and styles come from this origin only, it talks to this origin only (REST and /ws). */
const PAGE_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
};

/** The built dashboard: SERVICE_DASHBOARD_DIR, else apps/dashboard/dist of the checkout this code runs from (src/ or dist/src/). */
export function dashboardDir(config: AppConfig): string {
  if (config.dashboardDir) return resolve(config.dashboardDir);
  for (let dir = __dirname, i = 0; i < 6; dir = dirname(dir), i++) {
    if (existsSync(join(dir, 'apps', 'dashboard', 'package.json'))) return join(dir, 'apps', 'dashboard', 'dist');
  }
  return resolve('apps', 'dashboard', 'dist');
}

/**
 * Serves the dashboard at /dashboard, before Nest's routing (so no guard of a Nest route applies;
 * the site gate, registered earlier, still does): the hashed assets cached for good, and for any
 * other path under /dashboard the app's page (its router reads the path), never cached. Hosted,
 * the page is for a signed-in person: anyone else is sent to sign in and brought back. A missing
 * asset is a 404, not the page; an unbuilt dashboard answers 503 saying how to build it.
 */
export function dashboardRouter(config: AppConfig, sessions: WebSessions): Router {
  const root = dashboardDir(config);
  const router = express.Router();
  router.use(
    '/assets',
    express.static(join(root, 'assets'), { index: false, fallthrough: true, immutable: true, maxAge: '365d', setHeaders: (res) => res.setHeader('Cache-Control', IMMUTABLE) }),
    (_req: Request, res: Response) => void res.status(404).json({ detail: 'no such dashboard asset (an older build? reload the page)' }),
  );
  router.use(express.static(root, { index: false, redirect: false, fallthrough: true, maxAge: 0, setHeaders: (res) => res.setHeader('Cache-Control', 'no-cache') }));
  router.get('/{*path}', page(config, sessions, join(root, 'index.html')));
  return router;
}

function page(config: AppConfig, sessions: WebSessions, index: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    void (async () => {
      if (!existsSync(index)) return void res.status(503).set('Cache-Control', 'no-store').json({ detail: NOT_BUILT });
      if (config.isHosted && !(await sessions.current(req))) {
        res.set('Cache-Control', 'no-store').redirect(302, `/auth/login?${new URLSearchParams({ next: req.originalUrl }).toString()}`);
        return;
      }
      res.set(PAGE_HEADERS).sendFile(index, { cacheControl: false, lastModified: true }, (error) => error && next(error));
    })().catch(next);
  };
}
