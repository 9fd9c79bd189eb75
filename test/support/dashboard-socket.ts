import WebSocket from 'ws';
import { waitUntil } from './wait';

/** A dashboard WebSocket that collects the frames it receives. */
export async function dashboardSocket(baseUrl: string, token?: string, headers: Record<string, string> = {}): Promise<{ ws: WebSocket; frames: { event: string; data: any }[] }> {
  const ws = new WebSocket(baseUrl.replace('http', 'ws') + '/ws', { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  const frames: { event: string; data: any }[] = [];
  ws.on('message', (raw) => frames.push(JSON.parse(raw.toString())));
  await waitUntil(() => frames.some((f) => f.event === 'connected'), 5000, 'websocket connected');
  return { ws, frames };
}

/** Closes a dashboard WebSocket and resolves once the close handshake is done: the server no longer counts it as open. */
export function closeSocket(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.close();
  });
}
