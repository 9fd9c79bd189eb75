import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { WebSocket } from 'ws';
import { ConnectorFrame, ServedPlugin, ServerFrame, TUNNEL_CLOSE, TunnelRequest } from './tunnel-frames';

/** Where the answer of a forwarded request goes, frame by frame (an HTTP response, or another instance through Redis). */
export interface AnswerSink {
  head(status: number, headers: Record<string, string>): void;
  chunk(data: Buffer): void;
  end(): void;
  fail(status: number, detail: string): void;
}

/** One workspace's live connector on this instance. */
export interface ConnectorLink {
  socket: WebSocket;
  tenantId: string;
  connectedAt: Date;
  lastPongAt: Date;
  version: string;
  plugins: ServedPlugin[];
  roots: string[];
  allowedRoots: string[];
  manifestAt: Date | null;
  /** The `seq` of the last config or refresh frame the connector's manifest answered. */
  manifestSeq: number;
  /** Requests forwarded and not yet ended, by id. */
  pending: Map<string, AnswerSink>;
  forwarded: number;
  failed: number;
}

/**
 * The connectors' sockets held by this instance: one per workspace (a new one replaces the old),
 * and the requests forwarded over each until their answer ends. A socket is known only under the
 * workspace of the credentials it opened with, so a request can only ever reach its own
 * workspace's connector.
 */
@Injectable()
export class TunnelSockets {
  private readonly logger = new Logger('tunnel');
  private readonly links = new Map<string, ConnectorLink>();
  /** The same links by socket: every answer frame looks its link up by the socket it came on. */
  private readonly bySocket = new WeakMap<WebSocket, ConnectorLink>();
  private readonly listeners = new Set<(tenantId: string, link: ConnectorLink | undefined) => void>();

  get(tenantId: string): ConnectorLink | undefined {
    return this.links.get(tenantId);
  }

  all(): ConnectorLink[] {
    return [...this.links.values()];
  }

  /** Called with the workspace whenever its connector joins, changes its manifest or leaves this instance. */
  onChange(listener: (tenantId: string, link: ConnectorLink | undefined) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  attach(tenantId: string, socket: WebSocket, hello: Extract<ConnectorFrame, { t: 'hello' }>): ConnectorLink {
    const previous = this.links.get(tenantId);
    if (previous && previous.socket !== socket) {
      this.failAll(previous, 'the connector was replaced by a newer one of the same workspace');
      previous.socket.close(TUNNEL_CLOSE.replaced, 'replaced by a newer connector');
    }
    const now = new Date();
    const link: ConnectorLink = {
      socket,
      tenantId,
      connectedAt: now,
      lastPongAt: now,
      version: String(hello.version ?? 'unknown').slice(0, 40),
      plugins: sanePlugins(hello.plugins),
      roots: saneStrings(hello.roots),
      allowedRoots: saneStrings(hello.allowed_roots),
      manifestAt: now,
      manifestSeq: 0,
      pending: new Map(),
      forwarded: 0,
      failed: 0,
    };
    this.links.set(tenantId, link);
    this.bySocket.set(socket, link);
    this.emit(tenantId, link);
    return link;
  }

  detach(socket: WebSocket): void {
    for (const [tenantId, link] of this.links) {
      if (link.socket !== socket) continue;
      this.failAll(link, 'the connector disconnected before answering');
      this.links.delete(tenantId);
      this.bySocket.delete(socket);
      this.emit(tenantId, undefined);
    }
  }

  /** A frame from a connector: the answer to one of its requests, or a new manifest. */
  receive(socket: WebSocket, frame: ConnectorFrame): void {
    const link = this.bySocket.get(socket);
    if (!link || this.links.get(link.tenantId) !== link) return;
    switch (frame.t) {
      case 'manifest':
        link.plugins = sanePlugins(frame.plugins);
        link.roots = saneStrings(frame.roots);
        link.manifestAt = new Date();
        if (typeof frame.seq === 'number') link.manifestSeq = frame.seq;
        this.emit(link.tenantId, link);
        return;
      case 'head':
        link.pending.get(frame.id)?.head(frame.status, frame.headers ?? {});
        return;
      case 'chunk':
        link.pending.get(frame.id)?.chunk(Buffer.from(String(frame.data), 'base64'));
        return;
      case 'end':
        link.pending.get(frame.id)?.end();
        link.pending.delete(frame.id);
        return;
      case 'fail':
        link.failed += 1;
        link.pending.get(frame.id)?.fail(frame.status, String(frame.detail).slice(0, 500));
        link.pending.delete(frame.id);
        return;
      case 'hello':
        return;
    }
  }

  /** Forwards `request` over the workspace's socket on this instance; false when it has none here. Returns a cancel function. */
  forward(tenantId: string, request: TunnelRequest, sink: AnswerSink): (() => void) | false {
    const link = this.links.get(tenantId);
    if (!link || link.socket.readyState !== WebSocket.OPEN) return false;
    const id = randomUUID();
    link.pending.set(id, sink);
    link.forwarded += 1;
    this.send(link, { t: 'req', id, request });
    return () => {
      if (!link.pending.delete(id)) return;
      this.send(link, { t: 'cancel', id });
    };
  }

  send(link: ConnectorLink, frame: ServerFrame): void {
    if (link.socket.readyState === WebSocket.OPEN) link.socket.send(JSON.stringify(frame));
  }

  private failAll(link: ConnectorLink, detail: string): void {
    for (const sink of link.pending.values()) sink.fail(502, detail);
    link.pending.clear();
  }

  private emit(tenantId: string, link: ConnectorLink | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(tenantId, link);
      } catch (error) {
        this.logger.warn({ msg: 'tunnel listener failed', error_class: (error as Error).name });
      }
    }
  }
}

function saneStrings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').slice(0, 64) : [];
}

function sanePlugins(value: unknown): ServedPlugin[] {
  if (!Array.isArray(value)) return [];
  return value.slice(0, 32).flatMap((p: Partial<ServedPlugin>) =>
    p && typeof p.prefix === 'string' && typeof p.name === 'string'
      ? [
          {
            prefix: p.prefix,
            name: p.name.slice(0, 80),
            state: p.state === 'running' || p.state === 'failed' ? p.state : 'stopped',
            tools: Array.isArray(p.tools)
              ? p.tools
                  .slice(0, 500)
                  .map((t) => ({ name: String(t?.name).slice(0, 128), description: typeof t?.description === 'string' ? t.description.slice(0, 300) : undefined }))
              : [],
            ...(typeof p.error === 'string' ? { error: p.error.slice(0, 300) } : {}),
          },
        ]
      : [],
  );
}
