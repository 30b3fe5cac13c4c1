import { RedisConnections } from '@gatehouse/coordination';
import type { Logger, Registry } from '@gatehouse/platform';
import { Module, type DynamicModule } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { GatewayConfig } from './config/gateway.config.js';
import { EndpointModule } from './endpoint/endpoint.module.js';
import { GATEWAY_CONFIG, LOGGER, METRICS_REGISTRY, REDIS } from './infrastructure/infrastructure-tokens.js';

/** Built by createGatewayApp before Nest starts. */
export type GatewayInfrastructure = {
  config: GatewayConfig;
  logger: Logger;
  /** Every Redis connection of the gateway comes from here; `redis` is its main (`command`) one. */
  connections: RedisConnections;
  redis: Redis;
  metrics: Registry;
};

/**
 * The gateway's root module: its infrastructure as values (global, for its feature modules) and the workspace
 * MCP endpoint. Health, metrics and closing Redis are the platform's (createServiceApp).
 */
@Module({})
export class GatewayModule {
  static forRoot(infrastructure: GatewayInfrastructure): DynamicModule {
    return {
      module: GatewayModule,
      global: true,
      imports: [EndpointModule],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: infrastructure.config },
        { provide: LOGGER, useValue: infrastructure.logger },
        { provide: RedisConnections, useValue: infrastructure.connections },
        { provide: REDIS, useValue: infrastructure.redis },
        { provide: METRICS_REGISTRY, useValue: infrastructure.metrics },
      ],
      exports: [GATEWAY_CONFIG, LOGGER, RedisConnections, REDIS, METRICS_REGISTRY],
    };
  }
}
