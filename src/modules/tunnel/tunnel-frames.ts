/**
 * What Baton and the connector say to each other over the tunnel's WebSocket (`/tunnel/ws`):
 * one JSON object per text frame, `t` naming its kind. Shared by the server and by the connector
 * (`src/cli/connector/`), so the two cannot drift apart.
 */

/** The ten tool-server prefixes of `/{prefix}/mcp/{tenant_id}` (service spec §4). */
export const TUNNEL_PREFIXES = ['code', 'dc', 'debug', 'docs', 'extract', 'fs', 'outputs', 'ppt', 'word', 'refmgr'] as const;
export type TunnelPrefix = (typeof TUNNEL_PREFIXES)[number];

export function isTunnelPrefix(value: string): value is TunnelPrefix {
  return (TUNNEL_PREFIXES as readonly string[]).includes(value);
}

/** Request headers that travel to the tool server; everything else (cookies, the bearer token) stays at Baton. */
export const FORWARDED_REQUEST_HEADERS = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'] as const;
/** Answer headers that travel back to the client. */
export const FORWARDED_RESPONSE_HEADERS = ['content-type', 'mcp-session-id', 'cache-control', 'allow'] as const;

/** One HTTP request for a tool server on the person's machine. */
export interface TunnelRequest {
  prefix: TunnelPrefix;
  method: 'GET' | 'POST';
  /** What followed `/{prefix}/mcp/{tenant_id}` (`/` when nothing), with the query string. */
  path: string;
  headers: Record<string, string>;
  body: string | null;
}

/** A tool server the connector runs, as it reports it. */
export interface ServedPlugin {
  prefix: TunnelPrefix;
  name: string;
  state: 'running' | 'stopped' | 'failed';
  tools: { name: string; description?: string }[];
  error?: string;
}

/** What the workspace asks of the connector: the plugins it wants and the roots it wants served. */
export interface TunnelConfigFrame {
  t: 'config';
  /** Echoed by the manifest that follows, so Baton knows its wishes were applied. */
  seq?: number;
  roots: string[];
  plugins: { prefix: TunnelPrefix; name: string; enabled: boolean }[];
}

export type ServerFrame =
  { t: 'req'; id: string; request: TunnelRequest } | { t: 'cancel'; id: string } | TunnelConfigFrame | { t: 'refresh'; seq?: number } | { t: 'active_repo'; path: string };

export type ConnectorFrame =
  | { t: 'hello'; version: string; plugins: ServedPlugin[]; roots: string[]; allowed_roots: string[] }
  | { t: 'manifest'; plugins: ServedPlugin[]; roots: string[]; seq?: number }
  | { t: 'head'; id: string; status: number; headers: Record<string, string> }
  /** Part of an answer's body, base64. */
  | { t: 'chunk'; id: string; data: string }
  | { t: 'end'; id: string }
  | { t: 'fail'; id: string; status: number; detail: string };

/** Close codes of the tunnel socket. */
export const TUNNEL_CLOSE = {
  unauthorized: 4401,
  /** Opened from a web page (it carries an Origin): a page is never a connector. */
  forbidden_origin: 4403,
  /** Another connector of the same workspace took over. */
  replaced: 4409,
  /** Baton is shutting down: reconnect. */
  going_away: 1001,
} as const;

export function parseFrame<T>(raw: unknown): T | undefined {
  try {
    const value = JSON.parse(String(raw)) as unknown;
    return value && typeof value === 'object' && typeof (value as { t?: unknown }).t === 'string' ? (value as T) : undefined;
  } catch {
    return undefined;
  }
}
