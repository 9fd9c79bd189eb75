import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';

/**
 * The client address of a request that never went through Express (a
 * WebSocket upgrade), read exactly as Express reads `req.ip`: with the
 * application's own `trust proxy` setting, so every transport names a client
 * the same way.
 */
export function clientAddress(app: { request: Request }, request: IncomingMessage): string | undefined {
  // Express's request prototype of this application: its `ip` getter reads the app's `trust proxy fn`.
  const view = Object.create(app.request, {
    headers: { value: request.headers },
    socket: { value: request.socket },
    connection: { value: request.socket },
  }) as Request;
  return view.ip ?? request.socket.remoteAddress;
}
