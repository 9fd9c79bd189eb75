import { ShutdownDrain } from '../../common/lifecycle/shutdown-drain';
import { Metrics } from '../../common/observability/metrics';
import { Inject, Logger, OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { OnGatewayConnection, OnGatewayDisconnect, WebSocketGateway } from '@nestjs/websockets';
import cookieParser from 'cookie-parser';
import type { Request, Response } from 'express';
import type { IncomingMessage } from 'node:http';
import { WebSocket } from 'ws';
import { TenantContext } from '../../../libs/tenancy';
import { RequestError, RequestErrorCode } from '../../common/errors/request-error';
import { EVERY_TENANT, RealtimeEvents } from '../../common/events/realtime-events';
import { clientAddress } from '../../common/http/client-address';
import { isSameOrigin } from '../../common/http/same-origin';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { WebSessions } from '../accounts/web-sessions.service';
import { TenantResolver } from '../tenants/tenant-resolver.service';

/** Close code sent when the connection carries no valid credentials. */
export const WS_UNAUTHORIZED = 4401;
/** Close code sent when the client's address has presented too many refused credentials lately. */
export const WS_RATE_LIMITED = 4429;
/** Close code sent when this instance is stopping: the client reconnects (to another instance). */
export const WS_GOING_AWAY = 1001;

/**
 * The dashboard's live channel at /ws. A connection is bound to the tenant of
 * its credentials when it opens, and receives that tenant's events only, as
 * JSON `{event, data}` frames. Refused credentials count against the client's
 * address like those of any other transport (the tenant resolver counts them).
 * Hosted, a browser may open it with the web-session cookie instead of a token,
 * from Baton's own pages only (its Origin): the person's current workspace.
 */
@WebSocketGateway({ path: '/ws' })
export class RealtimeGateway implements OnGatewayConnection, OnGatewayDisconnect, OnModuleDestroy {
  private readonly logger = new Logger('realtime');
  private readonly clients = new Map<string, Set<WebSocket>>();
  private readonly tenantOf = new WeakMap<WebSocket, string>();
  /** Connections opened with a person's web-session cookie, by account (for events about the person). */
  private readonly byAccount = new Map<string, Set<WebSocket>>();
  private readonly accountOf = new WeakMap<WebSocket, string>();
  private readonly unsubscribe: () => void;
  private readonly stopDraining: () => void;
  /** Reads the signed cookies of an upgrade request, which Express's middleware never sees. */
  private readonly readCookies: ReturnType<typeof cookieParser>;

  constructor(
    private readonly resolver: TenantResolver,
    private readonly http: HttpAdapterHost,
    private readonly sessions: WebSessions,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    events: RealtimeEvents,
    drain: ShutdownDrain,
    metrics: Metrics,
  ) {
    metrics.gauge('baton_websocket_clients', 'Dashboard WebSockets open on this instance', () => [...this.clients.values()].reduce((n, set) => n + set.size, 0));
    // Stopping: every socket is told so (1001 going away) and reconnects, through the balancer, to an instance that stays.
    this.stopDraining = drain.onDrain(() => {
      for (const set of this.clients.values()) for (const client of set) client.close(WS_GOING_AWAY, 'server restarting: reconnect');
    });
    this.readCookies = cookieParser([config.sessionSecret, ...config.previousSessionSecrets]);
    this.unsubscribe = events.subscribe(({ tenantId, accountId, event, data }) => {
      const to = accountId ? this.byAccount.get(accountId) : tenantId === EVERY_TENANT ? [...this.clients.values()].flatMap((set) => [...set]) : this.clients.get(tenantId);
      // Written once, and only when a dashboard is there to read it: most changes (an agent's claim
      // with its whole item) happen while no dashboard of the workspace is open on this instance.
      let frame: string | undefined;
      for (const client of to ?? []) {
        if (client.readyState !== WebSocket.OPEN) continue;
        frame ??= JSON.stringify({ event, data });
        client.send(frame);
      }
    });
  }

  async handleConnection(client: WebSocket, request: IncomingMessage) {
    try {
      const address = clientAddress(this.http.httpAdapter.getInstance(), request);
      const person = await this.bySession(request);
      const tenant = person?.tenant ?? (await this.resolver.resolve(request.headers.authorization, address));
      this.tenantOf.set(client, tenant.tenantId);
      if (person) {
        this.accountOf.set(client, person.accountId);
        this.byAccount.set(person.accountId, (this.byAccount.get(person.accountId) ?? new Set<WebSocket>()).add(client));
      }
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

  /** The signed-in person and their current workspace, for an upgrade with the session cookie, no token, and Baton's Origin. */
  private async bySession(request: IncomingMessage): Promise<{ accountId: string; tenant: TenantContext } | undefined> {
    if (!this.config.isHosted || request.headers.authorization || !isSameOrigin(request, this.config.baseUrl)) return undefined;
    this.readCookies(request as Request, {} as Response, () => undefined);
    const person = await this.sessions.current(request as Request);
    return person?.tenant ? { accountId: person.accountId, tenant: person.tenant } : undefined;
  }

  handleDisconnect(client: WebSocket) {
    const accountId = this.accountOf.get(client);
    const own = accountId ? this.byAccount.get(accountId) : undefined;
    own?.delete(client);
    if (accountId && own?.size === 0) this.byAccount.delete(accountId);
    const tenantId = this.tenantOf.get(client);
    if (!tenantId) return;
    const set = this.clients.get(tenantId);
    set?.delete(client);
    if (set?.size === 0) this.clients.delete(tenantId);
  }

  onModuleDestroy() {
    this.unsubscribe();
    this.stopDraining();
  }
}
