import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpController } from './mcp.controller';
import { McpServerFactory } from './mcp-server.factory';
import { ToolCallObservers } from './tool-call-observers';
import { ToolRegistry } from './tool-registry.service';
import { ToolsDocController } from './tools-doc.controller';

@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [McpController, ToolsDocController],
  providers: [ToolRegistry, McpServerFactory, ToolCallObservers],
  exports: [ToolRegistry, McpServerFactory, ToolCallObservers],
})
export class McpModule {}
