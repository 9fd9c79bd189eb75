import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { PrincipalRequest } from '../../common/auth/principal';
import { Public } from '../../common/auth/public.decorator';
import { ConnectionNameParamsDto } from './dto/connection-name-params.dto';
import { SaveConnectionDto } from './dto/save-connection.dto';
import { McpConfig, McpConfigService } from './mcp-config.service';
import { ConnectionView, WorkspaceConnections } from './workspace-connections.service';
import { TeamSummary, TeamSummaryService } from './team-summary.service';

/** How to connect to Baton, and a workspace at a glance. */
@Controller()
export class SetupController {
  constructor(
    private readonly mcp: McpConfigService,
    private readonly team: TeamSummaryService,
    private readonly connections: WorkspaceConnections,
  ) {}

  @Get('settings/mcp-config')
  mcpConfig(): McpConfig {
    return this.mcp.mcpConfig();
  }

  /** Public: it is what someone reads before they hold a token. */
  @Get('config/api-key')
  @Public()
  apiKey(): ReturnType<McpConfigService['apiKey']> {
    return this.mcp.apiKey();
  }

  @Get('team/summary')
  teamSummary(@Req() req: PrincipalRequest): Promise<TeamSummary> {
    return this.team.summary(req.principal);
  }

  @Get('config/connections')
  async listConnections(): Promise<{ connections: ConnectionView[] }> {
    return { connections: await this.connections.list() };
  }

  /** 201 for a new name, 200 when it replaced one. */
  @Post('config/connections')
  async saveConnection(@Body() body: SaveConnectionDto, @Res({ passthrough: true }) res: Response): Promise<ConnectionView> {
    const { created, connection } = await this.connections.save(body);
    res.status(created ? 201 : 200);
    return connection;
  }

  @Delete('config/connections/:name')
  @HttpCode(204)
  removeConnection(@Param() params: ConnectionNameParamsDto): Promise<void> {
    return this.connections.remove(params.name);
  }
}
