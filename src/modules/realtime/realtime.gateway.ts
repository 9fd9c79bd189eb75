import { Logger, OnModuleDestroy } from '@nestjs/common';
import { OnGatewayConnection, OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { RealtimeEvents } from '../../common/events/realtime-events';
import { TenantResolver } from '../tenants/tenant-resolver.service';

/** Close code sent when the connection carries no valid credentials. */
export const WS_UNAUTHORIZED = 4401;

/**
 * The dashboard's live channel at /ws. A connection is bound to the tenant of
 * its credentials when it opens, and receives that tenant's events only, as
 * JSON `{event, data}` frames.
 */
@WebSocketGateway({ path: '/ws' })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger('realtime');
  private readonly clients = new Map<string, Set<WebSocket>>();
  private readonly tenantOf = new WeakMap<WebSocket, string>();
  private readonly unsubscribe: () => void;

  constructor(
    private readonly resolver: TenantResolver,
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
      const tenant = await this.resolver.resolve(request.headers.authorization);
      this.tenantOf.set(client, tenant.tenantId);
      const set = this.clients.get(tenant.tenantId) ?? new Set<WebSocket>();
      set.add(client);
      this.clients.set(tenant.tenantId, set);
      client.send(JSON.stringify({ event: 'connected', data: {} }));
    } catch (error) {
      this.logger.debug({ msg: 'websocket refused', reason: (error as Error).message });
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
