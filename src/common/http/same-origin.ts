import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * True when a browser request comes from Baton's own pages: its `Origin` is
 * APP_URL's origin or the origin the request was sent to; without `Origin`,
 * when `Sec-Fetch-Site` says same-origin (or a person typed the address).
 * A request carrying neither is not taken as same-origin: a state-changing
 * request authenticated by cookie must prove where it comes from.
 */
export function isSameOrigin(req: IncomingMessage & { protocol?: string }, baseUrl: string): boolean {
  const origin = req.headers.origin;
  // Express's protocol honours the proxy settings; a WebSocket upgrade has only the socket.
  const protocol = req.protocol ?? ((req.socket as TLSSocket).encrypted ? 'https' : 'http');
  if (origin) return origin === new URL(baseUrl).origin || origin === `${protocol}://${req.headers.host}`;
  const site = req.headers['sec-fetch-site'];
  return site === 'same-origin' || site === 'none';
}

/** Methods that change nothing, which need no origin check. */
export function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}
