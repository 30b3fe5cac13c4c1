// Injection tokens for what the worker is built with (interfaces have no runtime class to inject by).
export const WORKER_CONFIG = 'WORKER_CONFIG';
export const LOGGER = 'LOGGER';
/** The worker's one Redis connection handed to BullMQ (purpose `bullmq`): shared by its Queues and Workers. */
export const REDIS = 'REDIS';
export const METRICS_REGISTRY = 'METRICS_REGISTRY';
export const QUEUE_PROCESSORS = 'QUEUE_PROCESSORS';
