import 'reflect-metadata';
import { runService } from '@gatehouse/platform';
import { apiConfigSchema } from './config/api.config.js';
import { createApiApp, createApiLogger } from './create-api-app.js';

runService({
  name: 'api',
  schema: apiConfigSchema,
  createLogger: createApiLogger,
  createApp: (config, logger) => createApiApp(config, { logger }),
  address: (config) => ({ host: config.API_HOST, port: config.API_PORT }),
  listeningFields: (config) => ({ publicUrl: config.PUBLIC_URL }),
});
