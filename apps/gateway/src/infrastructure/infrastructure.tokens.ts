// Injection tokens for what the gateway is built with (interfaces have no runtime class to inject by).
export const GATEWAY_CONFIG = 'GATEWAY_CONFIG';
export const LOGGER = 'LOGGER';
/** The gateway's `command` Redis connection (revocation fan-out). */
export const REDIS = 'REDIS';
export const METRICS_REGISTRY = 'METRICS_REGISTRY';
