import { Controller, Delete, Get, Options, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Request, Response } from 'express';
import { currentTenant } from '../../libs/tenancy';
import { Public } from '../common/auth/public.decorator';
import { ShutdownDrain } from '../common/lifecycle/shutdown-drain';
import { ChecksReadScope } from '../common/auth/read-scope.decorator';
import { RequestError } from '../common/errors/request-error';
import { batchRefusal } from './json-rpc-batch.util';
import { invalidParamsReply } from './json-rpc-params.util';
import { McpAuthChallengeFilter } from './mcp-auth-challenge.filter';
import { McpHostGuard } from './mcp-host.guard';
import { McpConnection, withMcpConnection } from './mcp-connection';
import { McpServerFactory } from './mcp-server.factory';
import { McpThrottlerGuard } from './mcp-throttler.guard';
import { McpToolsets } from './mcp-toolsets.service';
import { McpSessions } from './sessions/mcp-sessions.service';
import { mcpSdk, serveStateless } from './sdk';
import { StatelessMcp } from './stateless-mcp';
import { parseToolsets } from './toolsets';
import { Answers, EVENT_STREAM, NO_CONTENT } from '../common/http/answers.decorator';
import { isUUID } from 'class-validator';
import { answerPreflight } from '../common/http/cors-preflight';

interface SseSession {
  transport: SSEServerTransport;
  tenantId: string;
  connection: McpConnection;
}

const TOOLSETS_HEADER = 'x-mcp-toolsets';

/**
 * The MCP front door. `POST /mcp` is the Streamable HTTP transport in stateless
 * mode: every request carries its own bearer token and is served by whichever
 * instance receives it, so no session has to stick to a machine. `/mcp/sse` is
 * the legacy SSE transport (its sessions live on the instance that opened them).
 * Both list the toolsets the connection names (`?toolsets=`, `X-MCP-Toolsets`).
 * Hosted, a request without a valid token is told where to get one (McpAuthChallengeFilter).
 * A read-scope token may post here: each tool call is checked (McpServerFactory).
 */
@Controller('mcp')
@UseGuards(McpHostGuard, McpThrottlerGuard)
@UseFilters(McpAuthChallengeFilter)
@ChecksReadScope()
export class McpController {
  private readonly sseSessions = new Map<string, SseSession>();

  constructor(
    private readonly servers: McpServerFactory,
    private readonly stateless: StatelessMcp,
    private readonly toolsets: McpToolsets,
    private readonly sessions: McpSessions,
    drain: ShutdownDrain,
  ) {
    // Stopping: the legacy SSE streams end, so their clients reconnect (to an instance that stays).
    drain.onDrain(() => {
      for (const session of this.sseSessions.values()) void session.transport.close();
    });
  }

  @Post()
  @Answers(
    { status: 200, contentType: 'application/json', description: 'The JSON-RPC answer (a text/event-stream when the client accepts only that).' },
    { status: 202, description: 'Notifications and responses accepted; nothing to answer.' },
  )
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    const connection = new McpConnection(this.selection(req), undefined, this.projectOf(req));
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
    await withMcpConnection(connection, async () => {
      const serve = () => this.serve(req, res);
      // A request of a session (Mcp-Session-Id), or an initialize opening one, is served as part of it (src/mcp/sessions/).
      if (await this.sessions.post(req, res, serve)) return;
      await serve();
    });
  }

  private async serve(req: Request, res: Response): Promise<void> {
    if (await this.stateless.answer(req, res)) return;
    // Anything the shared server does not answer gets the SDK's whole transport, with its own answers.
    await serveStateless(this.servers.create(), req, res);
  }

  /**
   * With `Mcp-Session-Id`, the session's event stream and its end. Without, a
   * stateless request has no server-initiated stream and no session to end.
   * These answers carry no call and do no work, so they take nothing from the
   * MCP budget (the SDK's client asks for the stream on every connect).
   */
  @Get()
  @SkipThrottle()
  @Answers(EVENT_STREAM, { status: 405, contentType: 'application/json', description: 'No `Mcp-Session-Id`: a stateless client has no stream to open.' })
  async getStream(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (await this.sessions.stream(req, res)) return;
    res.status(405).setHeader('Allow', 'POST').json({ detail: 'this MCP endpoint is stateless: send JSON-RPC requests with POST /mcp (no standalone event stream)' });
  }

  @Delete()
  @SkipThrottle()
  @Answers(NO_CONTENT, { status: 405, contentType: 'application/json', description: 'No `Mcp-Session-Id`: a stateless client has no session to end.' })
  async endSession(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (await this.sessions.end(req, res)) return;
    res.status(405).setHeader('Allow', 'POST').json({ detail: 'this MCP endpoint is stateless: there is no session to end' });
  }

  @Get('sse')
  @Answers(EVENT_STREAM)
  async openSse(@Req() req: Request, @Res() res: Response): Promise<void> {
    const toolsets = this.selection(req);
    const transport = new (mcpSdk().SSEServerTransport)('/mcp/sse', res);
    const server = this.servers.create();
    const connection = new McpConnection(toolsets, () => server.sendToolListChanged(), this.projectOf(req));
    this.sseSessions.set(transport.sessionId, { transport, tenantId: currentTenant().tenantId, connection });
    res.on('close', () => {
      this.sseSessions.delete(transport.sessionId);
      void server.close();
    });
    await server.connect(transport);
  }

  @Post('sse')
  @Answers({ status: 202, description: 'Accepted; the answer arrives on the event stream.' })
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
    await withMcpConnection(session.connection, () => session.transport.handlePostMessage(req, res, req.body));
  }

  /**
   * The toolsets a connection lists: `?toolsets=` on the URL, else the
   * `X-MCP-Toolsets` header, else the deployment's default. A name Baton does
   * not know is refused, so that a typo is not silently a shorter listing.
   */
  private selection(req: Request): readonly string[] {
    const given = req.query.toolsets ?? req.headers[TOOLSETS_HEADER];
    const raw = typeof given === 'string' ? given : Array.isArray(given) && given.every((v) => typeof v === 'string') ? given.join(',') : given;
    if (raw === undefined || raw === '') return this.toolsets.defaults;
    const parsed = typeof raw === 'string' ? parseToolsets(raw) : { problem: 'must be comma-separated toolset names' };
    if ('problem' in parsed) throw RequestError.invalidInput(`toolsets: ${parsed.problem}`);
    return parsed.toolsets;
  }

  /** `?project_id=`: the project whose tool_priority_map orders the connection's listing (a UUID). */
  private projectOf(req: Request): string | undefined {
    const given = req.query.project_id;
    if (given === undefined || given === '') return undefined;
    if (typeof given !== 'string' || !isUUID(given)) throw RequestError.invalidInput('project_id must be a UUID');
    return given.toLowerCase();
  }

  /** CORS preflight: carries no credentials, so it needs no tenant; the host guard has checked the Origin. */
  @Options('sse')
  @Public()
  @SkipThrottle()
  @Answers(NO_CONTENT)
  preflight(@Req() req: Request, @Res() res: Response): void {
    answerPreflight(req, res, 'Authorization, Content-Type, Mcp-Protocol-Version, X-MCP-Toolsets');
  }
}
