import 'reflect-metadata';
import { runService } from '@gatehouse/platform';
import { gatewayConfigSchema } from './config/gateway.config.js';
import { createGatewayApp, createGatewayLogger } from './create-gateway-app.js';

runService({
  name: 'gateway',
  schema: gatewayConfigSchema,
  createLogger: createGatewayLogger,
  createApp: (config, logger) => createGatewayApp(config, { logger }),
  address: (config) => ({ host: config.GATEWAY_HOST, port: config.GATEWAY_PORT }),
});
