import {
  hostField,
  httpUrlField,
  identifierField,
  integerField,
  portField,
  processConfigShape,
  redisUrlField,
  secret,
} from '@gatehouse/platform';
import { z } from 'zod';

/** Every environment variable the worker reads, parsed once at boot (see main.ts). */
export const workerConfigSchema = z.object({
  ...processConfigShape(),
  WORKER_HOST: hostField()
    .default('127.0.0.1')
    .describe('Address of the worker’s health and metrics listener.'),
  WORKER_PORT: portField().default(4100).describe('Port of the worker’s health and metrics listener.'),
  REDIS_URL: secret(redisUrlField()).default('redis://127.0.0.1:6379').describe('Redis URL (BullMQ queues).'),
  QUEUE_PREFIX: identifierField()
    .default('gatehouse')
    .describe(
      'Key prefix of the BullMQ queues in Redis; every producer and worker of one deployment uses the same.',
    ),
  API_URL: httpUrlField()
    .default('http://127.0.0.1:4000')
    .describe('Base URL of the API (leases, snapshots, readiness).'),
  WORKER_TOKEN: secret(z.string().trim().min(1))
    .optional()
    .describe('Worker API token (kind `worker`) used to lease transports. Optional until leases exist.'),
  WORKER_POOL: identifierField()
    .default('default')
    .describe('The operator-declared pool this worker serves.'),
  WORKER_CONCURRENCY: integerField({ min: 1, max: 256 })
    .default(4)
    .describe('Jobs processed at once per queue.'),
});

export type WorkerConfig = z.output<typeof workerConfigSchema>;
