import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { SESSION_COOKIE } from '../auth/session-cookie';

export interface OpenApiOptions {
  /** Shown in the document's `info.version`. */
  readonly version: string;
}

export const OPENAPI_UI_PATH = '/docs';

/**
 * The OpenAPI document (`/docs/json`, `/docs/yaml`) and its UI (`/docs`). The paths come from the routes
 * registered after this call, whose schemas are generated from the command registry's zod declarations
 * (commands/rest/command-route-schema.ts), so the document cannot drift from what is enforced.
 *
 * Call it before registerCommandRoutes: @fastify/swagger collects routes through an onRoute hook.
 */
export async function registerOpenApi(fastify: FastifyInstance, options: OpenApiOptions): Promise<void> {
  await fastify.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'Gatehouse admin API',
        description:
          'Every operation is a command of the registry (libs/commands); the same commands are GraphQL fields at /graphql. Errors are RFC 9457 problem+json with a stable `code`.',
        version: options.version,
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API token (`ghu_…`, `gha_…`, `ghw_…`).',
          },
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'Dashboard session; state-changing requests also need the CSRF header.',
          },
        },
      },
    },
    // Only documented operations (the commands carry tags); health, metrics and the UI's own routes stay out.
    hideUntagged: true,
  });
  await fastify.register(swaggerUi, { routePrefix: OPENAPI_UI_PATH, staticCSP: true });
}
