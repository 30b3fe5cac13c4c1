// Injection tokens of the operational module every app mounts (health, metrics).
export const READINESS_CHECKS = 'PLATFORM_READINESS_CHECKS';
export const OPERATIONAL_METRICS = 'PLATFORM_OPERATIONAL_METRICS';
export const SERVICE_LOGGER = 'PLATFORM_SERVICE_LOGGER';
