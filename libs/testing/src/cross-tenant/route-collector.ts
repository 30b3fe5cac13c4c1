import type { FastifyInstance, RouteOptions } from 'fastify';

/** One route as the server registered it: `GET` + `/v1/workspaces/:workspaceId`. */
export interface RegisteredRoute {
  readonly method: string;
  readonly url: string;
}

/** Filled while the server registers its routes; read it after the app is ready. */
export interface CollectedRoutes {
  readonly routes: readonly RegisteredRoute[];
}

/**
 * Installs an `onRoute` hook that records every route the server registers, in any plugin, with prefixes
 * applied (what Fastify actually serves, not what a registry says it should). Install it on the root instance
 * BEFORE any route or plugin is registered: routes added earlier are not seen.
 */
export function collectRoutes(fastify: FastifyInstance): CollectedRoutes {
  const routes: RegisteredRoute[] = [];
  const seen = new Set<string>();
  fastify.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      const entry = { method: String(method).toUpperCase(), url: route.url };
      const key = `${entry.method} ${entry.url}`;
      if (seen.has(key)) continue;
      seen.add(key);
      routes.push(entry);
    }
  });
  return { routes };
}
