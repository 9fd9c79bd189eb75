import { Controller, Delete, Get, Header, HttpCode, Options, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { currentTenant } from '../../libs/tenancy';
import { Public } from '../common/auth/public.decorator';
import { RequestError } from '../common/errors/request-error';
import { batchRefusal } from './json-rpc-batch.util';
import { invalidParamsReply } from './json-rpc-params.util';
import { McpHostGuard } from './mcp-host.guard';
import { McpServerFactory } from './mcp-server.factory';
import { mcpSdk } from './sdk';
import { McpThrottlerGuard } from './mcp-throttler.guard';

interface SseSession {
  transport: SSEServerTransport;
  tenantId: string;
}

/**
 * The MCP front door. `POST /mcp` is the Streamable HTTP transport in stateless
 * mode: every request carries its own bearer token and is served by whichever
 * instance receives it, so no session has to stick to a machine. `/mcp/sse` is
 * the legacy SSE transport (its sessions live on the instance that opened them).
 */
@Controller('mcp')
@UseGuards(McpHostGuard, McpThrottlerGuard)
export class McpController {
  private readonly sseSessions = new Map<string, SseSession>();

  constructor(private readonly servers: McpServerFactory) {}

  @Post()
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    const refusal = batchRefusal(req);
    if (refusal) {
      res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: refusal }, id: null });
      return;
    }
    const invalid = invalidParamsReply(req.body);
    if (invalid) {
      res.status(200).json(invalid);
      return;
    }
    const server = this.servers.create();
    const { StreamableHTTPServerTransport } = mcpSdk();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /**
   * Stateless Streamable HTTP offers no server-initiated stream and no session
   * to end. These answers carry no call and do no work, so they take nothing
   * from the MCP budget (the SDK's client asks for the stream on every connect).
   */
  @Get()
  @SkipThrottle()
  @HttpCode(405)
  @Header('Allow', 'POST')
  getStream() {
    return { detail: 'this MCP endpoint is stateless: send JSON-RPC requests with POST /mcp (no standalone event stream)' };
  }

  @Delete()
  @SkipThrottle()
  @HttpCode(405)
  @Header('Allow', 'POST')
  endSession() {
    return { detail: 'this MCP endpoint is stateless: there is no session to end' };
  }

  @Get('sse')
  async openSse(@Req() req: Request, @Res() res: Response): Promise<void> {
    const transport = new (mcpSdk().SSEServerTransport)('/mcp/sse', res);
    const server = this.servers.create();
    this.sseSessions.set(transport.sessionId, { transport, tenantId: currentTenant().tenantId });
    res.on('close', () => {
      this.sseSessions.delete(transport.sessionId);
      void server.close();
    });
    await server.connect(transport);
  }

  @Post('sse')
  async postSse(@Query('sessionId') sessionId: unknown, @Req() req: Request, @Res() res: Response): Promise<void> {
    const session = typeof sessionId === 'string' ? this.sseSessions.get(sessionId) : undefined;
    // Another tenant's session answers exactly like a missing one.
    if (!session || session.tenantId !== currentTenant().tenantId) {
      throw RequestError.notFound('unknown or expired MCP SSE session: open a new one with GET /mcp/sse');
    }
    // Answers travel on the event stream; a request with invalid params is answered there too, without reaching the SDK.
    const invalid = invalidParamsReply(req.body);
    if (invalid) {
      for (const reply of Array.isArray(invalid) ? invalid : [invalid]) await session.transport.send(reply as JSONRPCMessage);
      res.status(202).end('Accepted');
      return;
    }
    await session.transport.handlePostMessage(req, res, req.body);
  }

  /** CORS preflight: carries no credentials, so it needs no tenant; the host guard has checked the Origin. */
  @Options('sse')
  @Public()
  @SkipThrottle()
  preflight(@Req() req: Request, @Res() res: Response): void {
    if (req.headers.origin) {
      res.setHeader('Access-Control-Allow-Origin', req.headers.origin);
      res.setHeader('Vary', 'Origin');
    }
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', 'Authorization, Content-Type, Mcp-Protocol-Version');
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  }
}
