// Injection tokens for what the API is built with. Interfaces (Database, pino's Logger) have no runtime
// class to inject by, so every infrastructure dependency is injected by one of these names; those every app
// shares (LOGGER, REDIS, METRICS_REGISTRY) are the platform's.
export { LOGGER, METRICS_REGISTRY, REDIS } from '@gatehouse/platform';
export const API_CONFIG = 'API_CONFIG';
export const DATABASE = 'DATABASE';
