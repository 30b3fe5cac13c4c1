import { closeRedis, createRedisConnection } from '@gatehouse/coordination';
import {
  NestLoggerAdapter,
  createLogger,
  createMetricsRegistry,
  secretConfigKeys,
  secretConfigValues,
  type Logger,
} from '@gatehouse/platform';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { workerConfigSchema, type WorkerConfig } from './config/worker.config.js';
import { createWorkerHttpServer } from './http/worker-http.server.js';
import { WorkerModule } from './worker.module.js';

export type WorkerApp = {
  /** The Nest application context hosting the BullMQ workers (already started). */
  context: INestApplicationContext;
  /** The health/metrics listener, ready but not listening: main listens, tests inject. */
  http: FastifyInstance;
  /** Stops serving HTTP, waits for running jobs, closes the Workers, the Queues, then Redis. */
  close(): Promise<void>;
};

export type WorkerAppDeps = { logger?: Logger };

/** The worker's logger: redacts the secret config variables by name and scrubs their values from every line. */
export function createWorkerLogger(config: WorkerConfig): Logger {
  return createLogger({
    name: 'worker',
    level: config.LOG_LEVEL,
    secretKeys: secretConfigKeys(workerConfigSchema),
    secretValues: secretConfigValues(workerConfigSchema, config),
  });
}

export async function createWorkerApp(config: WorkerConfig, deps: WorkerAppDeps = {}): Promise<WorkerApp> {
  const logger = deps.logger ?? createWorkerLogger(config);
  // One connection for BullMQ (it duplicates it for its blocking reads and closes only those duplicates).
  const redis = createRedisConnection({ url: config.REDIS_URL, name: 'worker', purpose: 'bullmq', logger });
  const metrics = createMetricsRegistry({ app: 'worker' });

  let context: INestApplicationContext;
  try {
    context = await NestFactory.createApplicationContext(
      WorkerModule.forRoot({ config, logger, redis, metrics }),
      {
        logger: new NestLoggerAdapter(logger.child({ component: 'nest' })),
        abortOnError: false,
      },
    );
    await context.init();
  } catch (error) {
    await closeRedis(redis);
    throw error;
  }

  const http = createWorkerHttpServer({ logger, metrics, redis, apiUrl: config.API_URL });
  await http.ready();

  let closing: Promise<void> | undefined;
  return {
    context,
    http,
    close: () => {
      closing ??= (async () => {
        await http.close();
        await context.close();
      })();
      return closing;
    },
  };
}
