// The registration a sign-in was started with, found again by issuer and client id when the code is redeemed
// or a token revoked (its secret never sits in the sign-in state or the credential row).
import type { Database } from '@gatehouse/db';
import type { RegisteredClient } from '@gatehouse/oauth';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import { hostPolicyOfRow } from '../host-policy/host-policy-view';
import type { OAuthCipher } from './oauth-cipher';
import { PostgresClientRegistrationStore } from './postgres-client-registration.store';

/**
 * A stored registration (pre-registered or dynamic) of exactly this issuer and client id; else the public
 * client a definition declared (`oauth.clientId`, no secret), which is the only other way a sign-in starts.
 */
export async function registeredClientFor(
  db: Database,
  cipher: OAuthCipher,
  tenantId: string,
  issuer: string,
  clientId: string,
): Promise<RegisteredClient> {
  const store = new PostgresClientRegistrationStore(db, cipher, tenantId);
  const stored = await store.byClientId(issuer, clientId);
  if (stored !== null) return stored;
  return { issuer, clientId, clientSecret: null, tokenEndpointAuthMethod: 'none', kind: 'pre_registered' };
}

/** The tenant's HostPolicy, which narrows the pool policy the API's OAuth egress runs under. */
export async function tenantHostPolicyOf(db: Database, tenantId: string): Promise<TenantHostPolicy> {
  const row = await db.withTenant(tenantId, (tx) => tx.hostPolicy.findUnique({ where: { tenantId } }));
  return hostPolicyOfRow(row);
}
