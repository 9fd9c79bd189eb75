import { Module } from '@nestjs/common';
import { MembersModule } from '../members/members.module';
import { McpConfigService } from './mcp-config.service';
import { SetupController } from './setup.controller';
import { TeamSummaryService } from './team-summary.service';
import { WorkspaceConnections } from './workspace-connections.service';

/** GET /settings/mcp-config, /config/api-key, /team/summary and the workspace's named connections (/config/connections). */
@Module({ imports: [MembersModule], controllers: [SetupController], providers: [McpConfigService, TeamSummaryService, WorkspaceConnections] })
export class SetupModule {}
