import { HeldLeases } from '@gatehouse/lease-holder';
import { Module } from '@nestjs/common';
import { McpServing } from '../mcp-server/mcp-serving.js';
import { McpSessions } from '../mcp-server/mcp-sessions.js';
import { GatewayLifecycle } from './gateway-lifecycle.js';
import { gatewayProviders } from './gateway-providers.js';
import { GATEWAY_ACTIVITY, GATEWAY_REVOCATIONS, UPSTREAM_POOL } from './gateway-tokens.js';
import { WorkspaceEndpoint } from './workspace-endpoint.js';
import { WorkspaceEndpointController } from './workspace-endpoint.controller.js';

/** The workspace MCP endpoint (`/mcp/w/:workspaceId`) and everything behind it (decision 0080), as providers. */
@Module({
  controllers: [WorkspaceEndpointController],
  providers: [...gatewayProviders, GatewayLifecycle],
  exports: [
    WorkspaceEndpoint,
    McpSessions,
    McpServing,
    HeldLeases,
    UPSTREAM_POOL,
    GATEWAY_ACTIVITY,
    GATEWAY_REVOCATIONS,
  ],
})
export class EndpointModule {}
