import type { Logger } from 'pino';

/** A connection or pool built before Nest started, closed when the app shuts down. */
export interface ClosableResource {
  /** Named in the log line when closing it fails (`redis`, `postgres`). */
  readonly name: string;
  close(): Promise<void>;
}

/** Closes the resources in parallel; a failure is logged by the resource's name, never thrown. */
export async function closeResources(resources: readonly ClosableResource[], logger: Logger): Promise<void> {
  const results = await Promise.allSettled(resources.map((resource) => resource.close()));
  for (const [index, result] of results.entries()) {
    if (result.status === 'rejected') {
      logger.warn({ err: result.reason, resource: resources[index]?.name }, 'close failed');
    }
  }
}

/**
 * The app, with a `close()` that closes the resources once Nest's close has finished: after the HTTP server drained
 * and after every provider's shutdown hooks. Nest runs `onApplicationShutdown` module by module from the root down,
 * so a hook of its own would run before the apps' lifecycles (two modules deep) wrote their last (the gateway's
 * activity flush, the revocation relay). Nest's application is a proxy that ignores assignments, hence a proxy of
 * our own in front of it. A second call returns the first's promise.
 */
export function closingResourcesAfter<App extends { close(): Promise<void> }>(
  app: App,
  resources: readonly ClosableResource[],
  logger: Logger,
): App {
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      try {
        await app.close();
      } finally {
        await closeResources(resources, logger);
      }
    })();
    return closing;
  };
  return new Proxy(app, {
    get: (target, property, receiver) =>
      property === 'close' ? close : Reflect.get(target, property, receiver),
  });
}
