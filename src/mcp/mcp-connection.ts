import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What Baton knows of the MCP client a message came from: which toolsets it
 * lists. A stateful connection (`/mcp/sse`) keeps its selection for its whole
 * life and can be told that its listing changed; a stateless request
 * (`POST /mcp`) has its selection from its own URL or header and nothing
 * outlives it.
 */
export class McpConnection {
  private readonly enabled: Set<string>;

  constructor(
    toolsets: readonly string[],
    /** Present on a stateful connection: tells its client to list its tools again. */
    private readonly listChanged?: () => Promise<void>,
    /** `?project_id=`: the project whose tool_priority_map orders the listing. */
    readonly projectId?: string,
  ) {
    this.enabled = new Set(toolsets);
  }

  get stateful(): boolean {
    return this.listChanged !== undefined;
  }

  get toolsets(): readonly string[] {
    return [...this.enabled];
  }

  /** Adds a toolset to a stateful connection's selection and tells its client; a stateless one has nothing to keep it in. */
  async enable(toolset: string): Promise<void> {
    if (!this.listChanged || this.enabled.has(toolset)) return;
    this.enabled.add(toolset);
    await this.listChanged();
  }
}

const connections = new AsyncLocalStorage<McpConnection>();

/** Runs `work` (the handling of one MCP message) with `connection` as the connection it came from. */
export function withMcpConnection<T>(connection: McpConnection, work: () => T): T {
  return connections.run(connection, work);
}

/** The connection the MCP message being handled came from; undefined outside MCP handling. */
export function currentMcpConnection(): McpConnection | undefined {
  return connections.getStore();
}
