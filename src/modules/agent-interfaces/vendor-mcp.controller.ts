import { Controller, Delete, Get, Header, HttpCode, Post, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { ChecksReadScope } from '../../common/auth/read-scope.decorator';
import { McpAuthChallengeFilter } from '../../mcp/mcp-auth-challenge.filter';
import { McpHostGuard } from '../../mcp/mcp-host.guard';
import { McpThrottlerGuard } from '../../mcp/mcp-throttler.guard';
import { serveStateless } from '../../mcp/sdk';
import { VendorAdapter } from './vendor-adapter.service';
import { Answers } from '../../common/http/answers.decorator';

/**
 * `POST /mcp/vendor`: MCP (Streamable HTTP, stateless, JSON answers) for a
 * third-party plugin directory, with the curated tools of VendorAdapter.
 * Authenticated, host-checked and rate-limited exactly as `POST /mcp` (the
 * same per-token budget).
 */
@Controller('mcp/vendor')
@UseGuards(McpHostGuard, McpThrottlerGuard)
@UseFilters(McpAuthChallengeFilter)
@ChecksReadScope()
export class VendorMcpController {
  constructor(private readonly adapter: VendorAdapter) {}

  @Post()
  @Answers(
    { status: 200, contentType: 'application/json', description: 'The JSON-RPC answer of the curated MCP endpoint.' },
    { status: 202, description: 'Notifications and responses accepted; nothing to answer.' },
  )
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    if (Array.isArray(req.body)) {
      res.status(400).json({ jsonrpc: '2.0', error: { code: -32600, message: '/mcp/vendor takes one JSON-RPC message per request' }, id: null });
      return;
    }
    this.adapter.noteRequest();
    await serveStateless(this.adapter.create(), req, res);
  }

  @Get()
  @SkipThrottle()
  @HttpCode(405)
  @Header('Allow', 'POST')
  getStream() {
    return { detail: '/mcp/vendor is stateless: send JSON-RPC requests with POST (no standalone event stream)' };
  }

  @Delete()
  @SkipThrottle()
  @HttpCode(405)
  @Header('Allow', 'POST')
  endSession() {
    return { detail: '/mcp/vendor is stateless: there is no session to end' };
  }
}
