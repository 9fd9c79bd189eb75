import { TunnelRequest } from '../../modules/tunnel/tunnel-frames';

/** A tool server's answer: the whole body, or a stream of it (a streamed MCP answer). */
export interface LocalAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | AsyncIterable<Uint8Array>;
}

/** One tool server the connector serves under a prefix. */
export interface ToolServer {
  readonly prefix: TunnelRequest['prefix'];
  readonly name: string;
  readonly running: boolean;
  readonly lastError: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  tools(): Promise<{ name: string; description?: string }[]>;
  callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  handle(request: TunnelRequest, signal: AbortSignal): Promise<LocalAnswer>;
}
