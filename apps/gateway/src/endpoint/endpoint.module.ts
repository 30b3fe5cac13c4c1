import { Module } from '@nestjs/common';
import { GatewayRuntime } from './gateway.runtime.js';
import { WorkspaceEndpointController } from './workspace-endpoint.controller.js';

/** The workspace MCP endpoint (`/mcp/w/:workspaceId`) and everything behind it (decision 0080). */
@Module({
  controllers: [WorkspaceEndpointController],
  providers: [GatewayRuntime],
  exports: [GatewayRuntime],
})
export class EndpointModule {}
