import {
  childProcessConfigShape,
  refuseChildUserSelfInProduction,
  hostField,
  httpUrlField,
  integerField,
  portField,
  processConfigShape,
  redisUrlField,
  secret,
} from '@gatehouse/platform';
import { z } from 'zod';

/** A comma-separated list, trimmed, empty members dropped. */
function listField(member: z.ZodString) {
  return z
    .string()
    .max(4096)
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== ''),
    )
    .pipe(z.array(member).max(64));
}

/** `host` or `host:port`, lowercase letters, digits, dots, dashes; IPv6 in brackets. */
const hostName = z.string().regex(/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/, 'must be host or host:port');
/** `scheme://host[:port]`, nothing after. */
const origin = z.string().regex(/^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/, 'must be an origin');

/** Every environment variable the gateway reads, parsed once at boot (see main.ts). */
export const gatewayConfigSchema = z
  .object({
    ...processConfigShape(),
    GATEWAY_HOST: hostField()
      .default('127.0.0.1')
      .describe('Address the gateway listens on (0.0.0.0 in a container).'),
    GATEWAY_PORT: portField().default(4200).describe('Port the gateway listens on.'),
    REDIS_URL: secret(redisUrlField())
      .default('redis://127.0.0.1:6379')
      .describe('Redis URL (revocation fan-out, session routing).'),
    REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1-64 letters, digits, colons, dashes or underscores')
      .default('gatehouse:')
      .describe('The API’s REDIS_KEY_PREFIX: the namespace its revocation relay publishes under.'),
    API_URL: httpUrlField()
      .default('http://127.0.0.1:4000')
      .describe('Base URL of the API (token introspection, leases, readiness).'),
    GATEWAY_TOKEN: secret(z.string().trim().min(1))
      .optional()
      .describe(
        'Gateway API token (kind `gateway`, created with the admin CLI). Without it the MCP endpoint answers 503.',
      ),
    GATEWAY_ALLOWED_HOSTS: listField(hostName)
      .default(['localhost', '127.0.0.1', '[::1]'])
      .describe(
        'Host header values the MCP endpoint answers (DNS-rebinding protection), comma-separated; a bare host ' +
          'matches any port. Add the public name the gateway is reached by.',
      ),
    GATEWAY_ALLOWED_ORIGINS: listField(origin)
      .default([])
      .describe(
        'Origin header values accepted besides the gateway’s own hosts (browser-based MCP clients), comma-separated. ' +
          'A request without Origin (CLI and SDK clients) is not refused for it.',
      ),
    CALLER_CACHE_TTL_MS: integerField({ min: 0, max: 300_000 })
      .default(30_000)
      .describe(
        'How long an introspected caller token is served from memory (evicted at once on its revocation event).',
      ),
    REVOCATIONS_RETRY_MAX_MS: integerField({ min: 100, max: 60_000 })
      .default(5_000)
      .describe(
        'Longest wait between attempts to start the revocation holder (API or Redis not there yet); not ready until it starts.',
      ),
    CATALOG_CACHE_TTL_MS: integerField({ min: 0, max: 300_000 })
      .default(5_000)
      .describe(
        'How long a workspace catalog is served before it is asked again (with its ETag); dropped on ledger events.',
      ),
    RATE_LIMIT_PER_TOKEN: integerField({ min: 1, max: 1_000_000 })
      .default(600)
      .describe('MCP requests per minute one caller token may make (429 with Retry-After beyond).'),
    RATE_LIMIT_PER_WORKSPACE: integerField({ min: 1, max: 10_000_000 })
      .default(6_000)
      .describe('MCP requests per minute all callers of one workspace may make on this replica.'),
    SESSIONS_PER_TOKEN: integerField({ min: 1, max: 10_000 })
      .default(100)
      .describe(
        'Open MCP sessions one caller token may hold on a replica: a new one replaces its least recently used ' +
          'idle session, or is refused (429) when all are busy.',
      ),
    ...childProcessConfigShape(),
    UPSTREAM_STARTUP_TIMEOUT_MS: integerField({ min: 1_000, max: 600_000 })
      .default(30_000)
      .describe('Bound on an upstream’s handshake and initial listing when its lease names none.'),
    UPSTREAM_CALL_TIMEOUT_MS: integerField({ min: 1_000, max: 3_600_000 })
      .default(60_000)
      .describe('Bound on one upstream tools/call.'),
  })
  .superRefine(refuseChildUserSelfInProduction);

export type GatewayConfig = z.output<typeof gatewayConfigSchema>;
