import { Controller, Get, Options, Post, Req, Res, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Public } from '../../common/auth/public.decorator';
import { Answers, NO_CONTENT } from '../../common/http/answers.decorator';
import { McpHostGuard } from '../../mcp/mcp-host.guard';
import { McpThrottlerGuard } from '../../mcp/mcp-throttler.guard';
import { TUNNEL_PREFIXES } from './tunnel-frames';
import { TunnelProxyService } from './tunnel-proxy.service';
import { answerPreflight } from '../../common/http/cors-preflight';

/** `/{prefix}/mcp/{tenant_id}` and `/{prefix}/mcp/{tenant_id}/{rest}` for each of the ten prefixes. */
const ROUTES = TUNNEL_PREFIXES.flatMap((prefix) => [`${prefix}/mcp/:tenant_id`, `${prefix}/mcp/:tenant_id/*rest`]);

/**
 * The tool proxies: MCP Streamable HTTP to a tool server on the workspace's connector, with the
 * same host check, credentials and per-token budget as /mcp. The answer streams back as the
 * tool server writes it. A read-only token cannot POST here (403 READ_ONLY_TOKEN): Baton cannot tell
 * which of a person's own tools only read, so none of them is offered to such a token.
 */
@Controller()
@UseGuards(McpHostGuard, McpThrottlerGuard)
export class TunnelProxyController {
  constructor(private readonly proxy: TunnelProxyService) {}

  @Post(ROUTES)
  @Answers(
    { status: 200, contentType: 'application/json', description: "The tool server's answer, as it wrote it (JSON, or a text/event-stream it streams)." },
    { status: 503, contentType: 'application/json', description: 'No connector is serving this workspace: the detail says how to start one.' },
  )
  post(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.proxy.handle(req, res);
  }

  @Get(ROUTES)
  @SkipThrottle()
  @Answers(
    { status: 200, contentType: 'application/json', description: "The tool server's answer, as it wrote it (JSON, or a text/event-stream it streams)." },
    { status: 503, contentType: 'application/json', description: 'No connector is serving this workspace: the detail says how to start one.' },
  )
  get(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.proxy.handle(req, res);
  }

  /** CORS preflight: carries no credentials, so it needs no tenant; the host guard has checked the Origin. */
  @Options(ROUTES)
  @Public()
  @SkipThrottle()
  @Answers(NO_CONTENT)
  preflight(@Req() req: Request, @Res() res: Response): void {
    answerPreflight(req, res, 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID', 'Mcp-Session-Id');
  }
}
