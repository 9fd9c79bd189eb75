import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';

interface Waiting {
  clientId: RequestId;
  resolve(reply: JSONRPCMessage): void;
}

/**
 * The transport of the one MCP server that answers stateless `POST /mcp`
 * requests (the SDK's public Transport interface). Each request is handed to
 * the server under an id of its own, so two clients that both number their
 * requests from 1 never meet in the server's tables; the reply goes back to
 * the waiting HTTP request under the client's id.
 */
export class StatelessDispatch implements Transport {
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  private nextId = 0;
  private readonly waiting = new Map<number, Waiting>();

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * Takes the server's replies. Anything else it sends (a progress
   * notification, a request to the client) has no stream to travel on in a
   * stateless JSON answer and is dropped, as the SDK's own transport drops it.
   */
  async send(message: JSONRPCMessage): Promise<void> {
    if ('method' in message || !('id' in message) || typeof message.id !== 'number') return;
    const waiting = this.waiting.get(message.id);
    if (!waiting) return;
    this.waiting.delete(message.id);
    waiting.resolve({ ...message, id: waiting.clientId });
  }

  /** Hands one request to the server; resolves with its reply (a result or a JSON-RPC error), never rejects. */
  answer(request: JSONRPCRequest, extra: MessageExtraInfo): Promise<JSONRPCMessage> {
    const id = this.nextId;
    this.nextId = this.nextId === Number.MAX_SAFE_INTEGER ? 0 : this.nextId + 1;
    return new Promise((resolve) => {
      this.waiting.set(id, { clientId: request.id, resolve });
      this.onmessage?.({ ...request, id }, extra);
    });
  }
}
