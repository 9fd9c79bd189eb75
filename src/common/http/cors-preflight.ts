import type { Request, Response } from 'express';

/**
 * Answers a CORS preflight of an MCP-style endpoint (GET, POST): the caller's Origin is echoed
 * (the host guard has checked it), with the request headers it may send and those it may read.
 */
export function answerPreflight(req: Request, res: Response, allowHeaders: string, exposeHeaders?: string): void {
  if (req.headers.origin) {
    res.setHeader('Access-Control-Allow-Origin', req.headers.origin);
    res.setHeader('Vary', 'Origin');
  }
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', allowHeaders);
  if (exposeHeaders) res.setHeader('Access-Control-Expose-Headers', exposeHeaders);
  res.setHeader('Access-Control-Max-Age', '600');
  res.status(204).end();
}
