// Injection tokens for what the gateway is built with (interfaces have no runtime class to inject by); those
// every app shares (LOGGER, REDIS: here the `command` connection, METRICS_REGISTRY) are the platform's.
export { LOGGER, METRICS_REGISTRY, REDIS } from '@gatehouse/platform';
export const GATEWAY_CONFIG = 'GATEWAY_CONFIG';
