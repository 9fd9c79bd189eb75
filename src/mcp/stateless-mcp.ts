import { Injectable } from '@nestjs/common';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { JSONRPCNotification, JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { McpServerFactory } from './mcp-server.factory';
import { mcpSdk } from './sdk';
import { StatelessDispatch } from './stateless-dispatch';
import { answerToolCall, plainToolCall } from './stateless-tool-call';

/**
 * Answers the common stateless `POST /mcp` requests (one request or one
 * notification, well formed, from a client that accepts the JSON answer)
 * with one MCP server built once, instead of a server and a Streamable HTTP
 * transport built per request: the SDK's transport converts every Node
 * request into a web Request and back, and a new server sets up its handler
 * tables, which cost several times the tool call itself.
 *
 * What is answered here is answered by the SDK's own code, as the transport
 * would have it: its schemas decide what is a well-formed message, its server
 * negotiates the protocol version, runs the handlers and turns a failure into
 * a JSON-RPC error. Every other request (a batch, a client response, a
 * missing Accept or Content-Type, an unsupported `Mcp-Protocol-Version`, a
 * malformed message) goes to the SDK's transport, which answers it with its
 * own status and error. A plain `tools/call`, the bulk of the traffic, is run
 * here without the server's message routing (stateless-tool-call.ts).
 */
@Injectable()
export class StatelessMcp {
  private dispatch?: Promise<StatelessDispatch>;

  constructor(private readonly servers: McpServerFactory) {}

  /** Answers the request when it is one this path serves; false when it must go to the SDK's transport. */
  async answer(req: Request, res: Response): Promise<boolean> {
    const message = hotMessage(req);
    if (!message) return false;
    if (!('id' in message)) {
      // A notification has nothing to answer; in a stateless request it also has nothing to act on:
      // no request of this client is in flight here, and nothing is remembered after the answer.
      res.writeHead(202).end();
      return true;
    }
    const call = plainToolCall(message);
    const reply = call
      ? await answerToolCall(this.servers, message.id, call)
      : await (await (this.dispatch ??= this.connect())).answer(message, { requestInfo: { headers: req.headers } });
    if (res.destroyed || res.writableEnded) return true;
    const body = JSON.stringify(reply);
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) }).end(body);
    return true;
  }

  private async connect(): Promise<StatelessDispatch> {
    const server: Server = this.servers.create();
    const dispatch = new StatelessDispatch();
    await server.connect(dispatch);
    return dispatch;
  }
}

/** The one JSON-RPC request or notification of a POST this path answers, or undefined. */
function hotMessage(req: Request): JSONRPCRequest | JSONRPCNotification | undefined {
  const sdk = mcpSdk();
  const accept = req.headers.accept;
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (mediaType(req.headers['content-type']) !== 'application/json') return undefined;
  const version = req.headers['mcp-protocol-version'];
  if (version !== undefined && (typeof version !== 'string' || !sdk.SUPPORTED_PROTOCOL_VERSIONS.includes(version))) return undefined;
  // The request and notification schemas are two of the four the SDK's JSONRPCMessageSchema tries: a body either
  // passes is a message the transport would take, and asking them alone costs a quarter of the union.
  const body: unknown = req.body;
  return sdk.isJSONRPCRequest(body) || sdk.isJSONRPCNotification(body) ? body : undefined;
}

function mediaType(header: string | undefined): string | undefined {
  return header?.split(';', 1)[0].trim().toLowerCase();
}
