import type { TenantTx } from '../tenancy/prisma-client';

// Rows of oauth_credentials (docs/decisions/0061-oauth-credential-store.md): the storage half of libs/oauth's
// TokenStore port. Ciphertexts pass through untouched (the API seals and opens them, AAD bound to the row id and
// tenant); every write takes the next value of the oauth_credential_versions sequence, so a version never repeats
// for a key, not even after a delete and a new sign-in. Writes are compare-and-swaps on the version.

export type OAuthSubjectRef =
  | { readonly kind: 'user'; readonly userId: string }
  | { readonly kind: 'workspace'; readonly workspaceId: string };

/** What identifies a credential within the transaction's tenant. */
export interface OAuthCredentialIdentity {
  readonly subject: OAuthSubjectRef;
  readonly serverIdentity: string;
  readonly resource: string;
  readonly issuer: string;
}

export type OAuthCredentialStatus = 'active' | 'refresh_in_flight' | 'needs_sign_in';

/** The columns a write sets (ciphertexts sealed by the caller for the row id it writes). */
export interface OAuthCredentialFields {
  readonly status: OAuthCredentialStatus;
  readonly accessTokenCt: Uint8Array<ArrayBuffer> | null;
  readonly refreshTokenCt: Uint8Array<ArrayBuffer> | null;
  readonly expiresAt: Date | null;
  readonly scope: string | null;
  readonly tokenEndpoint: string;
  readonly revocationEndpoint: string | null;
  readonly clientId: string;
  readonly refreshFencingToken: string | null;
}

export interface OAuthCredentialRow extends OAuthCredentialFields {
  readonly id: string;
  readonly tenantId: string;
  readonly identity: OAuthCredentialIdentity;
  readonly version: number;
  readonly updatedAt: Date;
}

function subjectText(subject: OAuthSubjectRef): string {
  return subject.kind === 'user' ? `user:${subject.userId}` : `workspace:${subject.workspaceId}`;
}

function statusOf(text: string): OAuthCredentialStatus {
  if (text === 'active' || text === 'refresh_in_flight' || text === 'needs_sign_in') return text;
  // The table's CHECK constraint allows nothing else: a bug or a hand-edited row.
  throw new Error('oauth_credentials: unknown status');
}

function bytes(value: Uint8Array | null): Uint8Array<ArrayBuffer> | null {
  if (value === null) return null;
  const out = new Uint8Array(value.byteLength);
  out.set(value);
  return out;
}

type ModelRow = NonNullable<Awaited<ReturnType<TenantTx['oAuthCredential']['findFirst']>>>;

function toRow(raw: ModelRow): OAuthCredentialRow {
  const subject: OAuthSubjectRef =
    raw.subjectKind === 'user'
      ? { kind: 'user', userId: raw.subjectUserId ?? '' }
      : { kind: 'workspace', workspaceId: raw.subjectWorkspaceId ?? '' };
  return {
    id: raw.id,
    tenantId: raw.tenantId,
    identity: { subject, serverIdentity: raw.serverIdentity, resource: raw.resource, issuer: raw.issuer },
    status: statusOf(raw.status),
    accessTokenCt: bytes(raw.accessTokenCt),
    refreshTokenCt: bytes(raw.refreshTokenCt),
    expiresAt: raw.expiresAt,
    scope: raw.scope,
    tokenEndpoint: raw.tokenEndpoint,
    revocationEndpoint: raw.revocationEndpoint,
    clientId: raw.clientId,
    refreshFencingToken: raw.refreshFencingToken,
    version: Number(raw.version),
    updatedAt: raw.updatedAt,
  };
}

function whereIdentity(identity: OAuthCredentialIdentity) {
  return {
    subject: subjectText(identity.subject),
    serverIdentity: identity.serverIdentity,
    resource: identity.resource,
    issuer: identity.issuer,
  };
}

/** The credential with this identity in the transaction's tenant, or null. */
export async function findOAuthCredential(
  tx: TenantTx,
  identity: OAuthCredentialIdentity,
): Promise<OAuthCredentialRow | null> {
  const row = await tx.oAuthCredential.findFirst({ where: whereIdentity(identity) });
  return row === null ? null : toRow(row);
}

/** Every credential of one subject in the transaction's tenant (newest first). */
export async function listOAuthCredentialsOfSubject(
  tx: TenantTx,
  subject: OAuthSubjectRef,
): Promise<OAuthCredentialRow[]> {
  const rows = await tx.oAuthCredential.findMany({
    where: { subject: subjectText(subject) },
    orderBy: [{ updatedAt: 'desc' }, { id: 'asc' }],
  });
  return rows.map(toRow);
}

/**
 * Inserts the credential with `id` (its ciphertexts sealed for that id) only when none exists for the identity.
 * Returns its version, or null when one exists already (nothing written).
 */
export async function insertOAuthCredential(
  tx: TenantTx,
  row: {
    readonly id: string;
    readonly tenantId: string;
    readonly identity: OAuthCredentialIdentity;
    readonly fields: OAuthCredentialFields;
  },
): Promise<number | null> {
  const { subject } = row.identity;
  const f = row.fields;
  const userId = subject.kind === 'user' ? subject.userId : null;
  const workspaceId = subject.kind === 'workspace' ? subject.workspaceId : null;
  const inserted = await tx.$queryRaw<{ version: bigint | string }[]>`
    INSERT INTO oauth_credentials (id, tenant_id, subject_kind, subject, subject_user_id, subject_workspace_id,
       server_identity, resource, issuer, status, access_token_ct, refresh_token_ct, expires_at, scope,
       token_endpoint, revocation_endpoint, client_id, refresh_fencing_token)
     VALUES (${row.id}::uuid, ${row.tenantId}::uuid, ${subject.kind}, ${subjectText(subject)}, ${userId}::uuid,
       ${workspaceId}::uuid, ${row.identity.serverIdentity}, ${row.identity.resource}, ${row.identity.issuer},
       ${f.status}, ${f.accessTokenCt}, ${f.refreshTokenCt}, ${f.expiresAt}, ${f.scope}, ${f.tokenEndpoint},
       ${f.revocationEndpoint}, ${f.clientId}, ${f.refreshFencingToken})
     ON CONFLICT (tenant_id, subject, server_identity, resource, issuer) DO NOTHING
     RETURNING version`;
  const version = inserted[0]?.version;
  return version === undefined ? null : Number(version);
}

/** Rewrites row `id` only while it is at `expectedVersion`; the new version, or null (nothing written). */
export async function updateOAuthCredential(
  tx: TenantTx,
  id: string,
  expectedVersion: number,
  f: OAuthCredentialFields,
): Promise<number | null> {
  const updated = await tx.$queryRaw<{ version: bigint | string }[]>`
    UPDATE oauth_credentials
        SET status = ${f.status}, access_token_ct = ${f.accessTokenCt}, refresh_token_ct = ${f.refreshTokenCt},
            expires_at = ${f.expiresAt}, scope = ${f.scope}, token_endpoint = ${f.tokenEndpoint},
            revocation_endpoint = ${f.revocationEndpoint}, client_id = ${f.clientId},
            refresh_fencing_token = ${f.refreshFencingToken},
            version = nextval('oauth_credential_versions'), updated_at = now()
      WHERE id = ${id}::uuid AND version = ${expectedVersion}::bigint
      RETURNING version`;
  const version = updated[0]?.version;
  return version === undefined ? null : Number(version);
}

/**
 * Deletes the credential with this identity (only at `expectedVersion` when given). Returns the deleted row
 * (what sign-out needs to revoke at the issuer), or null when nothing was deleted.
 */
export async function deleteOAuthCredential(
  tx: TenantTx,
  identity: OAuthCredentialIdentity,
  expectedVersion?: number,
): Promise<OAuthCredentialRow | null> {
  const row = await tx.oAuthCredential.findFirst({ where: whereIdentity(identity) });
  if (row === null) return null;
  const version = expectedVersion === undefined ? row.version : BigInt(expectedVersion);
  const deleted = await tx.oAuthCredential.deleteMany({ where: { id: row.id, version } });
  return deleted.count === 1 ? toRow(row) : null;
}
