import {
  childProcessConfigShape,
  refuseChildUserSelfInProduction,
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
export const workerConfigSchema = z
  .object({
    ...processConfigShape(),
    WORKER_HOST: hostField()
      .default('127.0.0.1')
      .describe('Address of the worker’s health and metrics listener.'),
    WORKER_PORT: portField().default(4100).describe('Port of the worker’s health and metrics listener.'),
    REDIS_URL: secret(redisUrlField())
      .default('redis://127.0.0.1:6379')
      .describe('Redis URL (BullMQ queues).'),
    QUEUE_PREFIX: identifierField()
      .default('gatehouse')
      .describe(
        'Key prefix of the BullMQ queues in Redis; every producer and worker of one deployment uses the same.',
      ),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 letters, digits, colons, dashes or underscores')
      .default('gatehouse:')
      .describe('The API’s REDIS_KEY_PREFIX: the namespace its revocation relay publishes under.'),
    API_URL: httpUrlField()
      .default('http://127.0.0.1:4000')
      .describe('Base URL of the API (leases, snapshots, readiness).'),
    WORKER_TOKEN: secret(z.string().trim().min(1))
      .optional()
      .describe(
        'Worker API token (kind `worker`; scopes leases:write, snapshots:write, revocations:read) used to lease transports and post catalog snapshots. Unset: catalog jobs complete as skipped.',
      ),
    WORKER_POOL: identifierField()
      .default('default')
      .describe('The operator-declared pool this worker serves.'),
    WORKER_CONCURRENCY: integerField({ min: 1, max: 256 })
      .default(4)
      .describe('Jobs processed at once per queue.'),
    ...childProcessConfigShape(),
    JOB_LOCK_MS: integerField({ min: 1_000, max: 600_000 })
      .default(30_000)
      .describe(
        'How long a running job’s lock holds unrenewed (renewed every half of it), and how often stalled jobs are looked for: a job whose worker died is retried within about twice this.',
      ),
    DISCOVERY_STARTUP_TIMEOUT_MS: integerField({ min: 1_000, max: 600_000 })
      .default(30_000)
      .describe('Bound on the handshake and the initial listing when the lease names none.'),
  })
  .superRefine(refuseChildUserSelfInProduction);

export type WorkerConfig = z.output<typeof workerConfigSchema>;
