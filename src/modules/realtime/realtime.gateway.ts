import { Logger, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OnGatewayConnection, OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { RequestError, RequestErrorCode } from '../../common/errors/request-error';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { clientAddress } from '../../common/http/client-address';
import { TenantResolver } from '../tenants/tenant-resolver.service';

/** Close code sent when the connection carries no valid credentials. */
export const WS_UNAUTHORIZED = 4401;
/** Close code sent when the client's address has presented too many refused credentials lately. */
export const WS_RATE_LIMITED = 4429;

/**
 * The dashboard's live channel at /ws. A connection is bound to the tenant of
 * its credentials when it opens, and receives that tenant's events only, as
 * JSON `{event, data}` frames. Refused credentials count against the client's
 * address like those of any other transport (the tenant resolver counts them).
 */
@WebSocketGateway({ path: '/ws' })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger('realtime');
  private readonly clients = new Map<string, Set<WebSocket>>();
  private readonly tenantOf = new WeakMap<WebSocket, string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly resolver: TenantResolver,
    private readonly http: HttpAdapterHost,
    events: RealtimeEvents,
  ) {
    this.unsubscribe = events.subscribe(({ tenantId, event, data }) => {
      const frame = JSON.stringify({ event, data });
      for (const client of this.clients.get(tenantId) ?? []) {
        if (client.readyState === WebSocket.OPEN) client.send(frame);
      }
    });
  }

  async handleConnection(client: WebSocket, request: IncomingMessage) {
    try {
      const tenant = await this.resolver.resolve(request.headers.authorization, clientAddress(this.http.httpAdapter.getInstance(), request));
      this.tenantOf.set(client, tenant.tenantId);
      const set = this.clients.get(tenant.tenantId) ?? new Set<WebSocket>();
      set.add(client);
      this.clients.set(tenant.tenantId, set);
      client.send(JSON.stringify({ event: 'connected', data: {} }));
    } catch (error) {
      // A refusal is tallied in the log by the limiter, not written here once per connection.
      if (error instanceof RequestError && error.code === RequestErrorCode.RateLimited) {
        client.close(WS_RATE_LIMITED, `rate limited: retry after ${error.retryAfterSeconds ?? 1} s`);
        return;
      }
      if (!(error instanceof RequestError)) {
        const { code, name } = error as Error & { code?: string };
        this.logger.warn({ msg: 'websocket credentials could not be checked', error_class: code ?? name });
      }
      client.close(WS_UNAUTHORIZED, 'unauthorized');
    }
  }

  handleDisconnect(client: WebSocket) {
    const tenantId = this.tenantOf.get(client);
    if (!tenantId) return;
    const set = this.clients.get(tenantId);
    set?.delete(client);
    if (set?.size === 0) this.clients.delete(tenantId);
  }

  onModuleDestroy() {
    this.unsubscribe();
  }
}
