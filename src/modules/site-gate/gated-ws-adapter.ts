import { INestApplicationContext } from '@nestjs/common';
import { WsAdapter } from '@nestjs/platform-ws';
import type { MessageMappingProperties } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import type { Observable } from 'rxjs';
import { SiteGate } from './site-gate.service';

type VerifyClient = (info: { req: IncomingMessage }, callback: (ok: boolean, code?: number, message?: string) => void) => void;

/**
 * WebSocket upgrades never pass through Express, so the site gate checks them
 * here: an upgrade without the gate cookie is answered 401 before any socket
 * is opened. A gateway without message handlers (Baton's read their sockets themselves) gets no
 * per-message parsing from the adapter: each frame would be parsed as JSON and piped through rxjs
 * for nothing, on the tunnel once per frame of every proxied tool call.
 */
export class GatedWsAdapter extends WsAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly gate: SiteGate,
  ) {
    super(app);
  }

  override create(port: number, options: Record<string, unknown> & { verifyClient?: VerifyClient } = {}) {
    const own = options.verifyClient;
    const verifyClient: VerifyClient = (info, callback) => {
      const path = new URL(info.req.url ?? '/', 'http://baton.invalid').pathname;
      if (!this.gate.admits(path, info.req.headers.cookie)) return callback(false, 401, 'site password required');
      if (own) return own(info, callback);
      callback(true);
    };
    return super.create(port, { ...options, verifyClient });
  }

  override bindMessageHandlers(client: unknown, handlers: MessageMappingProperties[], transform: (data: unknown) => Observable<unknown>): void {
    if (handlers.length === 0) return;
    super.bindMessageHandlers(client, handlers, transform);
  }
}
