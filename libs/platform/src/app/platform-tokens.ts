// Injection tokens every app provides the same way (interfaces have no runtime class to inject by). Written once
// here so a collaborator of one app injects the same name in another; an app's own tokens (its config, its
// queues) stay in its infrastructure folder.
/** The app's pino logger. */
export const LOGGER = 'LOGGER';
/** The app's main Redis connection (RedisConnections' first: `command` for the API and gateway, `bullmq` for the worker). */
export const REDIS = 'REDIS';
/** The app's Prometheus registry (createMetricsRegistry). */
export const METRICS_REGISTRY = 'METRICS_REGISTRY';
