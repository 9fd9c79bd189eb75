import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ProfileLayersModule } from '../modules/profile-layers/profile-layers.module';
import { ToolPriorities } from './tool-priorities.service';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { McpToolsets } from './mcp-toolsets.service';
import { McpResources } from './resources/mcp-resources.service';
import { McpElicitations } from './sessions/mcp-elicitations.service';
import { McpSessionFeatures } from './sessions/mcp-session-features';
import { McpSessionStore } from './sessions/mcp-session-store';
import { McpSessions } from './sessions/mcp-sessions.service';
import { StatelessMcp } from './stateless-mcp';
import { McpTasks } from './tasks/mcp-tasks.service';
import { McpPrompts } from './prompts/mcp-prompts.service';
import { ToolAnswerExtras } from './tool-answer-extras';
import { ToolCallGates } from './tool-call-gates';
import { ToolCallObservers } from './tool-call-observers';
import { ToolRegistry } from './tool-registry.service';
import { ToolsDocController } from './tools-doc.controller';
import { ToolsetTools } from './toolsets.tools';

@Global()
@Module({
  imports: [DiscoveryModule, ProfileLayersModule],
  controllers: [McpController, ToolsDocController],
  providers: [
    ToolRegistry,
    McpServerFactory,
    McpTasks,
    McpPrompts,
    ToolCallObservers,
    ToolAnswerExtras,
    ToolCallGates,
    McpToolsets,
    StatelessMcp,
    ToolsetTools,
    ToolPriorities,
    // Sessions, resources, elicitation and logging on POST /mcp (src/mcp/sessions/, src/mcp/resources/).
    McpSessionStore,
    McpSessions,
    McpElicitations,
    McpResources,
    McpSessionFeatures,
  ],
  exports: [ToolRegistry, McpServerFactory, ToolCallObservers, ToolAnswerExtras, ToolCallGates, McpToolsets],
})
export class McpModule {}
