import {
  hostField,
  httpUrlField,
  identifierField,
  integerField,
  ipListField,
  isLoopbackUrl,
  portField,
  postgresUrlField,
  processConfigShape,
  redisUrlField,
  secret,
  typeLabel,
} from '@gatehouse/platform';
import { z } from 'zod';
import { identityConfigShape } from '../auth/identity.config.js';
import { poolsAllowingInsecureLoopback } from '../auth/pool-config.js';
import { addKeyRingIssues } from './key-ring.config.js';

/** Every environment variable the API reads, parsed once at boot (see main.ts). */
export const apiConfigSchema = z
  .object({
    ...processConfigShape(),
    API_HOST: hostField()
      .default('127.0.0.1')
      .describe('Address the API listens on (0.0.0.0 in a container).'),
    API_PORT: portField().default(4000).describe('Port the API listens on.'),
    DATABASE_URL: secret(postgresUrlField()).describe(
      'Postgres URL of the app role (gatehouse_app). Boot is refused for a superuser, a BYPASSRLS role or the table owner.',
    ),
    REDIS_URL: secret(redisUrlField())
      .default('redis://127.0.0.1:6379')
      .describe('Redis URL (locks, fan-out, queues).'),
    GATEHOUSE_KEYS: secret(typeLabel(z.string().trim(), 'kid:base64,...'))
      .optional()
      .describe(
        'Key-encryption keys: comma-separated `kid:base64` entries of 32 random bytes each. Required in production.',
      ),
    GATEHOUSE_ACTIVE_KEY_ID: identifierField()
      .optional()
      .describe(
        'The key id in GATEHOUSE_KEYS that wraps new data keys. Required when GATEHOUSE_KEYS is set.',
      ),
    PUBLIC_URL: httpUrlField()
      .default('http://127.0.0.1:4000')
      .describe(
        'External base URL of the API (OAuth redirect URIs, links). https in production unless loopback.',
      ),
    DASHBOARD_URL: httpUrlField()
      .optional()
      .describe(
        "The dashboard's base URL: the OAuth callback sends the browser to its Connections page. Unset: the callback answers JSON.",
      ),
    OAUTH_REFRESH_LOCK_TTL_MS: integerField({ min: 500, max: 600_000 })
      .default(10_000)
      .describe(
        'Lease of the per-credential refresh lock across API processes (renewed while held); a holder that died frees it after this.',
      ),
    OAUTH_REFRESH_GRANT_TIMEOUT_MS: integerField({ min: 100, max: 300_000 })
      .default(5_000)
      .describe(
        "A refresh grant's own deadline: the holder confirms a lock lease longer than this (plus the margin) before it sends.",
      ),
    OAUTH_REFRESH_LEASE_MARGIN_MS: integerField({ min: 50, max: 60_000 })
      .default(1_000)
      .describe(
        "Kept between a refresh grant's deadline and the end of the lock's lease (clock drift, Redis latency).",
      ),
    ...identityConfigShape(),
    REDIS_KEY_PREFIX: typeLabel(z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/), 'prefix')
      .optional()
      .describe(
        "Namespace for the API's Redis keys (default `gatehouse:`); lets several deployments share a Redis.",
      ),
    QUEUE_PREFIX: identifierField()
      .default('gatehouse')
      .describe(
        'Key prefix of the BullMQ queues the API produces into (catalog refresh jobs) and its sweep scheduler; the workers’ QUEUE_PREFIX.',
      ),
    CATALOG_SWEEP_EVERY_MS: integerField({ min: 0, max: 86_400_000 })
      .optional()
      .describe(
        'How often the catalog sweep enqueues refreshes of missing or old snapshots (a BullMQ job scheduler; one API process runs each tick). 0: off. Default 600000 (10 min), off under NODE_ENV=test.',
      ),
    CATALOG_REFRESH_MAX_AGE_MS: integerField({ min: 60_000, max: 604_800_000 })
      .default(21_600_000)
      .describe('A snapshot older than this (default 6 h) is refreshed by the next sweep.'),
    PROBE_MAX_AGE_MS: integerField({ min: 60_000, max: 604_800_000 })
      .default(900_000)
      .describe('A server whose last probe is older than this (default 15 min) is probed by the next sweep.'),
    TRUSTED_PROXIES: ipListField()
      .default([])
      .describe(
        'Comma-separated IPs/CIDRs of proxies (the dashboard server) allowed to state the client IP.',
      ),
  })
  .superRefine((config, ctx) => {
    checkKeyRing(config, ctx);
    if (config.NODE_ENV !== 'production') return;
    // Production refuses what is only acceptable on a developer's machine.
    if (config.GATEHOUSE_KEYS === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['GATEHOUSE_KEYS'],
        message: 'is required when NODE_ENV=production',
      });
    }
    if (poolsAllowingInsecureLoopback(config.WORKER_POOLS).length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['WORKER_POOLS'],
        message: 'allowInsecureLoopback is refused when NODE_ENV=production',
      });
    }
    if (new URL(config.PUBLIC_URL).protocol !== 'https:' && !isLoopbackUrl(config.PUBLIC_URL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['PUBLIC_URL'],
        message: 'must be https:// when NODE_ENV=production',
      });
    }
    const dashboard = config.DASHBOARD_URL;
    if (dashboard !== undefined && new URL(dashboard).protocol !== 'https:' && !isLoopbackUrl(dashboard)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DASHBOARD_URL'],
        message: 'must be https:// when NODE_ENV=production',
      });
    }
  });

export type ApiConfig = z.output<typeof apiConfigSchema>;

type KeyFields = { GATEHOUSE_KEYS?: string | undefined; GATEHOUSE_ACTIVE_KEY_ID?: string | undefined };

/** Validates the key ring here so a bad key stops boot with the config's one line; key ids are not secret. */
function checkKeyRing(config: KeyFields, ctx: z.RefinementCtx): void {
  const keys = config.GATEHOUSE_KEYS;
  const activeKeyId = config.GATEHOUSE_ACTIVE_KEY_ID;
  if (keys === undefined) {
    if (activeKeyId !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['GATEHOUSE_ACTIVE_KEY_ID'],
        message: 'is set but GATEHOUSE_KEYS is not',
      });
    }
    return;
  }
  if (activeKeyId === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['GATEHOUSE_ACTIVE_KEY_ID'],
      message: 'is required when GATEHOUSE_KEYS is set',
    });
    return;
  }
  addKeyRingIssues(keys, activeKeyId, ctx);
}
