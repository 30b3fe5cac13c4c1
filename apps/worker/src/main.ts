import 'reflect-metadata';
import { installGracefulShutdown, loadConfigOrExit } from '@gatehouse/platform';
import { workerConfigSchema } from './config/worker.config.js';
import { createWorkerApp, createWorkerLogger } from './create-worker-app.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit(workerConfigSchema, process.env);
  const logger = createWorkerLogger(config);
  const app = await createWorkerApp(config, { logger });
  installGracefulShutdown({ logger, graceMs: config.SHUTDOWN_GRACE_MS, shutdown: () => app.close() });
  await app.http.listen({ host: config.WORKER_HOST, port: config.WORKER_PORT });
  logger.info(
    { host: config.WORKER_HOST, port: config.WORKER_PORT, pool: config.WORKER_POOL },
    'worker listening',
  );
}

main().catch((error: unknown) => {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
  process.stderr.write(`worker failed to start: ${reason.replace(/\s+/g, ' ')}\n`);
  process.exit(1);
});
