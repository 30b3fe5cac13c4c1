// Injection tokens for what the worker is built with (interfaces have no runtime class to inject by); those
// every app shares are the platform's (LOGGER, METRICS_REGISTRY, REDIS: here the one connection handed to
// BullMQ, purpose `bullmq`, shared by its Queues and Workers).
export { LOGGER, METRICS_REGISTRY, REDIS } from '@gatehouse/platform';
export const WORKER_CONFIG = 'WORKER_CONFIG';
export const QUEUE_PROCESSORS = 'QUEUE_PROCESSORS';
