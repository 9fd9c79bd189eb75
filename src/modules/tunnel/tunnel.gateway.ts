import { Logger, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OnGatewayConnection, OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { runWithTenant, TenantContext } from '../../../libs/tenancy';
import { RequestError } from '../../common/errors/request-error';
import { clientAddress } from '../../common/http/client-address';
import { TenantResolver } from '../tenants/tenant-resolver.service';
import { ConnectorFrame, parseFrame, TUNNEL_CLOSE } from './tunnel-frames';
import { TunnelSettingsService } from './tunnel-settings.service';
import { TunnelSockets } from './tunnel-sockets.service';

/** How often Baton pings each connector; one that has not answered for three pings is dropped. */
export const TUNNEL_PING_MS = 10_000;
/** How long a new socket has to say hello before it is closed. */
const HELLO_MS = 10_000;

/**
 * The connectors' socket at /tunnel/ws. A connector opens it with its API token (hosted; none
 * self-hosted), says hello with the tool servers and roots it serves, then answers the requests
 * Baton forwards. The socket belongs to the workspace of its token and to no other.
 */
@WebSocketGateway({ path: '/tunnel/ws' })
export class TunnelGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger('tunnel');
  private readonly pinger: NodeJS.Timeout;
  private readonly alive = new WeakMap<WebSocket, number>();

  constructor(
    private readonly resolver: TenantResolver,
    private readonly http: HttpAdapterHost,
    private readonly sockets: TunnelSockets,
    private readonly settings: TunnelSettingsService,
  ) {
    this.pinger = setInterval(() => this.ping(), TUNNEL_PING_MS);
    this.pinger.unref();
  }

  async handleConnection(client: WebSocket, request: IncomingMessage): Promise<void> {
    // A browser sends an Origin with every WebSocket it opens and WebSockets know no CORS: without
    // this, any web page could open the local Baton's tunnel and answer, or read, its tool calls.
    if (request.headers.origin !== undefined) {
      client.close(TUNNEL_CLOSE.forbidden_origin, 'a connector is a program, not a web page');
      return;
    }
    // Frames that arrive while the credentials are checked wait for it.
    const early: unknown[] = [];
    const hold = (raw: unknown) => early.push(raw);
    client.on('message', hold);
    let tenant: TenantContext;
    try {
      const address = clientAddress(this.http.httpAdapter.getInstance(), request);
      const credential = await this.resolver.authenticate(request.headers.authorization, address);
      // Serving tools is more than reading: a read-only token cannot open the tunnel.
      if (credential.token?.scope === 'read') {
        client.close(TUNNEL_CLOSE.unauthorized, 'a read-only token cannot open the tunnel: sign in again with `baton connect`');
        return;
      }
      tenant = credential.tenant;
    } catch (error) {
      if (!(error instanceof RequestError)) this.logger.warn({ msg: 'tunnel credentials could not be checked', error_class: (error as Error).name });
      client.close(TUNNEL_CLOSE.unauthorized, 'unauthorized: run `baton connect` again to sign in');
      return;
    }
    client.off('message', hold);
    const tenantId = tenant.tenantId;
    this.alive.set(client, 0);
    client.on('pong', () => {
      this.alive.set(client, 0);
      const link = this.sockets.get(tenantId);
      if (link?.socket === client) link.lastPongAt = new Date();
    });
    const timer = setTimeout(() => client.close(1008, 'no hello'), HELLO_MS);
    const onFrame = (raw: unknown) => {
      const frame = parseFrame<ConnectorFrame>(raw);
      if (!frame) return;
      if (frame.t === 'hello') {
        clearTimeout(timer);
        this.sockets.attach(tenantId, client, frame);
        void this.sendConfig(tenant);
        return;
      }
      this.sockets.receive(client, frame);
    };
    client.on('message', onFrame);
    client.on('close', () => clearTimeout(timer));
    early.forEach(onFrame);
  }

  handleDisconnect(client: WebSocket): void {
    this.sockets.detach(client);
  }

  onModuleDestroy(): void {
    clearInterval(this.pinger);
    // Closed at once, not after a closing handshake: the connectors reconnect to whichever instance answers next.
    for (const link of this.sockets.all()) link.socket.terminate();
  }

  /** The workspace's wishes (roots, plugins) as the connector should apply them. */
  private async sendConfig(tenant: TenantContext): Promise<void> {
    try {
      const frame = await runWithTenant(tenant, () => this.settings.configFrame());
      const link = this.sockets.get(tenant.tenantId);
      if (link) this.sockets.send(link, frame);
    } catch (error) {
      this.logger.warn({ msg: 'tunnel settings not sent', error_class: (error as Error).name });
    }
  }

  private ping(): void {
    for (const link of this.sockets.all()) {
      const missed = this.alive.get(link.socket) ?? 0;
      if (missed >= 3) {
        link.socket.terminate();
        continue;
      }
      this.alive.set(link.socket, missed + 1);
      link.socket.ping();
    }
  }
}
