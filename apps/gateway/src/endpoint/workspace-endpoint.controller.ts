import type { Logger } from '@gatehouse/platform';
import { All, Controller, Inject, Param, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LOGGER } from '../infrastructure/infrastructure-tokens.js';
import { WorkspaceEndpoint } from './workspace-endpoint.js';

/**
 * `/mcp/w/:workspaceId` and its per-server passthrough `/mcp/w/:workspaceId/s/:server` (POST, GET, DELETE:
 * Streamable HTTP). Thin: the reply is handed to the endpoint, which refuses with problem+json or passes the raw
 * request to the MCP transport; the two routes differ only in the surface they name.
 */
@Controller()
export class WorkspaceEndpointController {
  constructor(
    @Inject(WorkspaceEndpoint) private readonly endpoint: WorkspaceEndpoint,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @All('mcp/w/:workspaceId')
  async serve(
    @Param('workspaceId') workspaceId: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.handle(workspaceId, undefined, request, reply);
  }

  @All('mcp/w/:workspaceId/s/:server')
  async passthrough(
    @Param('workspaceId') workspaceId: string,
    @Param('server') server: string,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    await this.handle(workspaceId, server, request, reply);
  }

  private async handle(
    workspaceId: string,
    server: string | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> {
    // The transport writes the response itself (JSON or an SSE stream).
    reply.hijack();
    try {
      await this.endpoint.handle(workspaceId, request.raw, reply.raw, request.body, server);
    } catch (error) {
      this.logger.error({ err: error, workspaceId }, 'gateway: MCP request failed');
      if (!reply.raw.headersSent) {
        reply.raw.writeHead(500, { 'content-type': 'application/problem+json' }).end(
          JSON.stringify({
            type: 'urn:gatehouse:problem:internal',
            title: 'Internal error',
            status: 500,
            code: 'internal',
          }),
        );
      } else reply.raw.end();
    }
  }
}
