import type { RealtimeEventName } from '../api/types';

/** A frame of Baton's /ws: `connected` when a connection opens, then the tenant's events. */
export interface LiveFrame {
  event: RealtimeEventName | 'connected';
  data: Record<string, unknown>;
}

type Listener = (frame: LiveFrame) => void;

/** Close code of /ws when the credentials are refused (src/modules/realtime/realtime.gateway.ts). */
const WS_UNAUTHORIZED = 4401;
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

/**
 * The live-events client: one WebSocket to /ws, reopened with exponential backoff (and jitter) when
 * it drops. Every `connected` frame is passed on: a view re-fetches what it shows then, which catches
 * up with whatever happened while it was disconnected (and closes the gap between its first fetch
 * and the socket opening).
 */
export class LiveEvents {
  private readonly listeners = new Set<Listener>();
  private socket?: WebSocket;
  private delay = FIRST_DELAY_MS;
  private timer?: ReturnType<typeof setTimeout>;
  /** Whether the socket is open: shown to the person, so that a stale page says so. */
  online = false;
  onStatus?: (online: boolean) => void;

  start(): void {
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onmessage = (message) => {
      const frame = JSON.parse(String(message.data)) as LiveFrame;
      if (frame.event === 'connected') {
        this.delay = FIRST_DELAY_MS;
        this.setOnline(true);
      }
      for (const listener of this.listeners) listener(frame);
    };
    socket.onclose = (event) => {
      this.setOnline(false);
      if (this.socket !== socket) return;
      if (event.code === WS_UNAUTHORIZED) return void location.assign(`/auth/login?${new URLSearchParams({ next: location.pathname }).toString()}`);
      this.timer = setTimeout(() => this.start(), this.delay * (0.75 + Math.random() / 2));
      this.delay = Math.min(this.delay * 2, MAX_DELAY_MS);
    };
  }

  stop(): void {
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.onStatus?.(online);
  }
}

export const live = new LiveEvents();
