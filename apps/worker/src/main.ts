import 'reflect-metadata';
import { runService } from '@gatehouse/platform';
import { workerConfigSchema } from './config/worker.config.js';
import { createWorkerApp, createWorkerLogger } from './create-worker-app.js';

runService({
  name: 'worker',
  schema: workerConfigSchema,
  createLogger: createWorkerLogger,
  createApp: async (config, logger) => (await createWorkerApp(config, { logger })).context,
  address: (config) => ({ host: config.WORKER_HOST, port: config.WORKER_PORT }),
  listeningFields: (config) => ({ pool: config.WORKER_POOL }),
});
