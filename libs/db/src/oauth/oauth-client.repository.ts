import type { TenantTx } from '../tenancy/prisma-client';

// Rows of oauth_clients: client registrations keyed by issuer (a changed issuer finds none). The secret is an
// envelope ciphertext the API seals for the row id and tenant; this file only moves bytes.

export type OAuthClientKind = 'pre_registered' | 'dynamic';
export type OAuthClientAuthMethod = 'none' | 'client_secret_basic' | 'client_secret_post';

export interface OAuthClientRow {
  readonly id: string;
  readonly tenantId: string;
  readonly issuer: string;
  readonly kind: OAuthClientKind;
  readonly clientId: string;
  readonly clientSecretCt: Uint8Array<ArrayBuffer> | null;
  readonly tokenEndpointAuthMethod: OAuthClientAuthMethod;
}

type ModelRow = NonNullable<Awaited<ReturnType<TenantTx['oAuthClient']['findFirst']>>>;

function toRow(raw: ModelRow): OAuthClientRow {
  const kind = raw.kind;
  const method = raw.tokenEndpointAuthMethod;
  if (kind !== 'pre_registered' && kind !== 'dynamic') throw new Error('oauth_clients: unknown kind');
  if (method !== 'none' && method !== 'client_secret_basic' && method !== 'client_secret_post')
    throw new Error('oauth_clients: unknown authentication method');
  let secret: Uint8Array<ArrayBuffer> | null = null;
  if (raw.clientSecretCt !== null) {
    secret = new Uint8Array(raw.clientSecretCt.byteLength);
    secret.set(raw.clientSecretCt);
  }
  return {
    id: raw.id,
    tenantId: raw.tenantId,
    issuer: raw.issuer,
    kind,
    clientId: raw.clientId,
    clientSecretCt: secret,
    tokenEndpointAuthMethod: method,
  };
}

/** The registration of this kind for exactly this issuer in the transaction's tenant, or null. */
export async function findOAuthClient(
  tx: TenantTx,
  issuer: string,
  kind: OAuthClientKind,
): Promise<OAuthClientRow | null> {
  const row = await tx.oAuthClient.findFirst({ where: { issuer, kind } });
  return row === null ? null : toRow(row);
}

/** A registration by client id at exactly this issuer (refreshes and revocations use the one tokens came from). */
export async function findOAuthClientById(
  tx: TenantTx,
  issuer: string,
  clientId: string,
): Promise<OAuthClientRow | null> {
  const row = await tx.oAuthClient.findFirst({ where: { issuer, clientId }, orderBy: { kind: 'desc' } });
  return row === null ? null : toRow(row);
}

/** Writes the registration of its (issuer, kind), replacing an earlier one (its secret sealed for `row.id`). */
export async function saveOAuthClient(tx: TenantTx, row: OAuthClientRow): Promise<void> {
  await tx.oAuthClient.deleteMany({ where: { issuer: row.issuer, kind: row.kind } });
  await tx.oAuthClient.create({
    data: {
      id: row.id,
      tenantId: row.tenantId,
      issuer: row.issuer,
      kind: row.kind,
      clientId: row.clientId,
      clientSecretCt: row.clientSecretCt,
      tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
    },
  });
}
