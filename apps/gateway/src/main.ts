import { installGracefulShutdown, loadConfigOrExit } from '@gatehouse/platform';
import { gatewayConfigSchema } from './config/gateway.config.js';
import { createGatewayApp, createGatewayLogger } from './create-gateway-app.js';

async function main(): Promise<void> {
  const config = loadConfigOrExit(gatewayConfigSchema, process.env);
  const logger = createGatewayLogger(config);
  const app = createGatewayApp(config, { logger });
  installGracefulShutdown({ logger, graceMs: config.SHUTDOWN_GRACE_MS, shutdown: () => app.close() });
  await app.listen({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT });
  logger.info({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT }, 'gateway listening');
}

main().catch((error: unknown) => {
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
  process.stderr.write(`gateway failed to start: ${reason.replace(/\s+/g, ' ')}\n`);
  process.exit(1);
});
