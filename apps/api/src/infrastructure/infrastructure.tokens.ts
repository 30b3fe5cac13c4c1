// Injection tokens for what the API is built with. Interfaces (Database, pino's Logger) have no runtime
// class to inject by, so every infrastructure dependency is injected by one of these names.
export const API_CONFIG = 'API_CONFIG';
export const LOGGER = 'LOGGER';
export const DATABASE = 'DATABASE';
export const REDIS = 'REDIS';
export const METRICS_REGISTRY = 'METRICS_REGISTRY';
