import 'reflect-metadata';
import { BootRefusedError, installGracefulShutdown, loadConfigOrExit } from '@gatehouse/platform';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { apiConfigSchema } from './config/api.config.js';
import { createApiApp, createApiLogger } from './create-api-app.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit(apiConfigSchema, process.env);
  const logger = createApiLogger(config);

  let app: NestFastifyApplication;
  try {
    app = await createApiApp(config, { logger });
  } catch (error) {
    if (error instanceof BootRefusedError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // Nest's own enableShutdownHooks() is not used: it re-raises the signal after closing, which would defeat
  // the grace timer below. app.close() runs the same lifecycle hooks (drain HTTP, then close the pools).
  installGracefulShutdown({ logger, graceMs: config.SHUTDOWN_GRACE_MS, shutdown: () => app.close() });
  await app.listen({ host: config.API_HOST, port: config.API_PORT });
  logger.info(
    { host: config.API_HOST, port: config.API_PORT, publicUrl: config.PUBLIC_URL },
    'api listening',
  );
}

main().catch((error: unknown) => {
  // Before the app is up there may be no logger: one line on stderr, the error's name and message only.
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
  process.stderr.write(`api failed to start: ${reason.replace(/\s+/g, ' ')}\n`);
  process.exit(1);
});
