import { Injectable, Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The moment this instance starts to stop (SIGTERM, an admin restart). From
 * then on readiness answers 503 so the balancer sends new work elsewhere, every
 * long-poll answers with what it has, and streams and WebSockets are ended so
 * their clients reconnect to another instance; requests already running finish
 * (src/main.ts bounds the wait by SERVICE_DRAIN_SECONDS, then closes the pools).
 */
@Injectable()
export class ShutdownDrain {
  private readonly logger = new Logger('shutdown');
  private readonly listeners = new Set<() => void>();
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  /** Runs `listener` when the drain begins (at once if it has); returns how to stop listening. */
  onDrain(listener: () => void): () => void {
    if (this.started) {
      this.run(listener);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  begin(): void {
    if (this.started) return;
    this.started = true;
    for (const listener of [...this.listeners]) this.run(listener);
    this.listeners.clear();
  }

  private run(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.logger.warn({ msg: 'a part of Baton could not end its open work for the drain', error: (error as Error).message });
    }
  }
}

/** The open connections of each server that `trackConnections` was given. */
const connections = new WeakMap<Server, Set<Socket>>();

/** Keeps the server's open connections, for `closeServing` to end those that never sent a byte. */
export function trackConnections(server: Server): void {
  const open = new Set<Socket>();
  connections.set(server, open);
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
}

/**
 * Runs `close` (which waits for the server to stop) while closing, every 100 ms, the connections
 * that have gone idle: a keep-alive connection whose last request finished after the close began
 * would otherwise hold it for its whole keep-alive time (65 s). So are the connections that have
 * not sent a byte (a browser's speculative preconnect, a client that opened one and never used
 * it), which Node counts as receiving headers until its headers timeout (66 s).
 */
export async function closeServing(server: Server, close: () => Promise<void>): Promise<void> {
  const endIdle = () => {
    server.closeIdleConnections();
    for (const socket of connections.get(server) ?? []) if (socket.bytesRead === 0) socket.destroy();
  };
  endIdle();
  const sweep = setInterval(endIdle, 100);
  try {
    await close();
  } finally {
    clearInterval(sweep);
  }
}
