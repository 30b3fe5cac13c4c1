import {
  hostField,
  httpUrlField,
  portField,
  processConfigShape,
  redisUrlField,
  secret,
} from '@gatehouse/platform';
import { z } from 'zod';

/** Every environment variable the gateway reads, parsed once at boot (see main.ts). */
export const gatewayConfigSchema = z.object({
  ...processConfigShape(),
  GATEWAY_HOST: hostField()
    .default('127.0.0.1')
    .describe('Address the gateway listens on (0.0.0.0 in a container).'),
  GATEWAY_PORT: portField().default(4200).describe('Port the gateway listens on.'),
  REDIS_URL: secret(redisUrlField())
    .default('redis://127.0.0.1:6379')
    .describe('Redis URL (revocation fan-out, session routing).'),
  API_URL: httpUrlField()
    .default('http://127.0.0.1:4000')
    .describe('Base URL of the API (token introspection, leases, readiness).'),
  GATEWAY_TOKEN: secret(z.string().trim().min(1))
    .optional()
    .describe(
      'Gateway API token (kind `gateway`, created with the admin CLI). Optional until the gateway endpoint exists.',
    ),
});

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
