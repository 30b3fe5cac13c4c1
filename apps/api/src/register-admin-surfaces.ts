import type { FastifyInstance } from 'fastify';
import { registerGraphQL } from './graphql/register-graphql';
import { registerAdminMcp } from './mcp-admin/admin-mcp-route';
import { registerOpenApi } from './openapi/register-openapi';
import {
  registerCommandRoutes,
  type CommandSurfaceOptions,
} from './admin-surfaces/rest/register-command-routes';

export interface AdminSurfacesOptions extends CommandSurfaceOptions {
  /** `info.version` of the OpenAPI document. */
  readonly version?: string;
}

/**
 * Everything generated from the command registry, in the order it must be registered: the OpenAPI collector
 * first (it sees routes through onRoute), then one REST route per command under /v1, then GraphQL at
 * /graphql, then admin over MCP at /mcp/admin. Call before the app is ready (for Nest: after NestFactory.create,
 * before app.init()).
 */
export async function registerAdminSurfaces(
  fastify: FastifyInstance,
  options: AdminSurfacesOptions,
): Promise<void> {
  await registerOpenApi(fastify, { version: options.version ?? '0.1.0' });
  await registerCommandRoutes(fastify, options);
  await registerGraphQL(fastify, options);
  await registerAdminMcp(fastify, options);
}
