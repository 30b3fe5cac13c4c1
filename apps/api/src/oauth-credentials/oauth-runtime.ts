// What the OAuth commands are built with (decision 0062): the operator's key ring for upstream secrets, the
// single-use sign-in state in Redis, Gatehouse's own redirect URI, and the egress the API's OAuth requests go
// through (the pinned, redirect-refusing fetch of libs/egress, under the policy of a pool open to the tenant).
import { randomBytes } from 'node:crypto';
import { revocationNamespaceOf } from '@gatehouse/coordination';
import { EnvelopeCipher, KeyRing } from '@gatehouse/crypto';
import { checkEgressPolicy, createPinnedFetch, type PinnedFetch, type Resolver } from '@gatehouse/egress';
import { RedisSignInStateStore, type SignInStateStore } from '@gatehouse/oauth';
import type { Logger } from '@gatehouse/platform';
import type { Redis } from 'ioredis';
import { egressPolicyFor } from '../admission/destination-admission';
import { poolsOpenToTenant, type WorkerPools } from '../auth/pool-config';
import type { ApiConfig } from '../config/api.config';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import { OAuthCipher } from './oauth-cipher';

/** The injection token of OAuthRuntime (an interface: there is no class to inject by). */
export const OAUTH_RUNTIME = 'OAUTH_RUNTIME';

/** The path of the API's own callback (a plain route beside the auth routes). */
export const OAUTH_CALLBACK_PATH = '/v1/oauth/callback';

/** The dashboard's page of OAuth connections, where a finished (or refused) sign-in lands. */
export const DASHBOARD_CONNECTIONS_PATH = '/connections';

const OAUTH_FETCH_TIMEOUT_MS = 10_000;
const OAUTH_MAX_RESPONSE_BYTES = 256 * 1024;

export interface OAuthEgress {
  readonly fetch: PinnedFetch;
  /** The pool's test-only insecure loopback (refused in production by the config), for endpoint checks too. */
  readonly allowInsecureLoopback: boolean;
}

export interface OAuthRuntime {
  readonly cipher: OAuthCipher;
  readonly stateStore: SignInStateStore;
  /** `${PUBLIC_URL}/v1/oauth/callback`: registered for every client and sent in every sign-in. */
  readonly redirectUri: string;
  /**
   * Where the callback sends the browser back to: the dashboard's Connections page (`${DASHBOARD_URL}/connections`);
   * null when no dashboard URL is configured (the callback then answers JSON).
   */
  readonly connectionsUrl: string | null;
  /**
   * A pinned fetch for one tenant's OAuth traffic, under the policy of the first pool (by name) open to the
   * tenant, narrowed by the tenant's HostPolicy; null when no pool is open to it or that policy is invalid.
   * The caller closes it.
   */
  egressFor(tenantSlug: string, tenantPolicy: TenantHostPolicy): OAuthEgress | null;
}

/** The operator's key ring for upstream OAuth secrets (tokens, client secrets, a sign-in's PKCE verifier). */
function envelopeCipherOf(config: ApiConfig, logger: Logger): EnvelopeCipher {
  if (config.GATEHOUSE_KEYS !== undefined && config.GATEHOUSE_ACTIVE_KEY_ID !== undefined) {
    const parsed = KeyRing.parse({
      keys: config.GATEHOUSE_KEYS,
      activeKeyId: config.GATEHOUSE_ACTIVE_KEY_ID,
    });
    if (!parsed.ok) throw new Error(`oauth: key ring refused (${parsed.reason})`);
    return new EnvelopeCipher(parsed.keyRing);
  }
  if (config.NODE_ENV === 'production') throw new Error('oauth: GATEHOUSE_KEYS is required in production');
  logger.warn('GATEHOUSE_KEYS is not set: OAuth sign-ins are encrypted under an ephemeral key');
  const ring = KeyRing.parse({
    keys: `ephemeral:${randomBytes(32).toString('base64')}`,
    activeKeyId: 'ephemeral',
  });
  if (!ring.ok) throw new Error('oauth: could not build the ephemeral key ring');
  return new EnvelopeCipher(ring.keyRing);
}

export function createOAuthRuntime(deps: {
  readonly config: ApiConfig;
  readonly logger: Logger;
  readonly redis: Redis;
  readonly pools: WorkerPools;
  readonly resolver: Resolver;
}): OAuthRuntime {
  const base = deps.config.PUBLIC_URL.replace(/\/+$/, '');
  const envelope = envelopeCipherOf(deps.config, deps.logger);
  return {
    cipher: new OAuthCipher(envelope),
    stateStore: new RedisSignInStateStore({
      connection: deps.redis,
      namespace: revocationNamespaceOf(deps.config.REDIS_KEY_PREFIX),
      cipher: envelope,
    }),
    redirectUri: `${base}${OAUTH_CALLBACK_PATH}`,
    connectionsUrl:
      deps.config.DASHBOARD_URL === undefined
        ? null
        : `${deps.config.DASHBOARD_URL.replace(/\/+$/, '')}${DASHBOARD_CONNECTIONS_PATH}`,
    egressFor(tenantSlug, tenantPolicy) {
      const pool = poolsOpenToTenant(deps.pools, tenantSlug)[0];
      if (pool === undefined) return null;
      const policy = egressPolicyFor(tenantPolicy, pool.ceiling);
      if (!checkEgressPolicy(policy).ok) return null;
      const fetch = createPinnedFetch({
        policy,
        resolver: deps.resolver,
        timeoutMs: OAUTH_FETCH_TIMEOUT_MS,
        maxResponseBytes: OAUTH_MAX_RESPONSE_BYTES,
      });
      return { fetch, allowInsecureLoopback: policy.allowInsecureLoopback };
    },
  };
}
