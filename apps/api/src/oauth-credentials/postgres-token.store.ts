// libs/oauth's TokenStore over oauth_credentials (decision 0061): get / compare-and-swap set / delete, the
// tokens sealed with the operator's key ring (AAD bound to the row id and tenant). The coordination (one refresh
// per credential across processes) stays in RefreshCoordinator; this is only storage.
import { randomUUID } from 'node:crypto';
import {
  deleteOAuthCredential,
  findOAuthCredential,
  insertOAuthCredential,
  updateOAuthCredential,
  type Database,
  type OAuthCredentialFields,
  type OAuthCredentialIdentity,
  type OAuthCredentialRow,
  type TenantTx,
} from '@gatehouse/db';
import type {
  CredentialKey,
  CredentialRecord,
  OAuthTokens,
  StoredCredential,
  TokenStore,
  TokenStoreSetResult,
} from '@gatehouse/oauth';
import type { OAuthCipher } from './oauth-cipher';

function identityOf(key: CredentialKey): OAuthCredentialIdentity {
  return {
    subject: key.subject,
    serverIdentity: key.serverIdentity,
    resource: key.resource,
    issuer: key.issuer,
  };
}

export class PostgresTokenStore implements TokenStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: OAuthCipher,
  ) {}

  async get(key: CredentialKey): Promise<StoredCredential | null> {
    return this.db.withTenant(key.tenantId, (tx) => this.read(tx, key));
  }

  async set(
    key: CredentialKey,
    record: CredentialRecord,
    expectedVersion: number | null,
  ): Promise<TokenStoreSetResult> {
    return this.db.withTenant(key.tenantId, async (tx) => {
      const current = await findOAuthCredential(tx, identityOf(key));
      if ((current?.version ?? null) !== expectedVersion)
        return { ok: false, reason: 'version_conflict', current: current && this.toStored(key, current) };
      if (current === null) {
        const id = randomUUID();
        const version = await insertOAuthCredential(tx, {
          id,
          tenantId: key.tenantId,
          identity: identityOf(key),
          fields: this.fieldsFor({ id, tenantId: key.tenantId }, record),
        });
        if (version !== null) return { ok: true, version };
      } else {
        const version = await updateOAuthCredential(
          tx,
          current.id,
          current.version,
          this.fieldsFor(current, record),
        );
        if (version !== null) return { ok: true, version };
      }
      // Another writer got there between the read and the write (READ COMMITTED): what is stored now.
      return { ok: false, reason: 'version_conflict', current: await this.read(tx, key) };
    });
  }

  async delete(key: CredentialKey, expectedVersion?: number): Promise<boolean> {
    const deleted = await this.db.withTenant(key.tenantId, (tx) =>
      deleteOAuthCredential(tx, identityOf(key), expectedVersion),
    );
    return deleted !== null;
  }

  private async read(tx: TenantTx, key: CredentialKey): Promise<StoredCredential | null> {
    const row = await findOAuthCredential(tx, identityOf(key));
    return row && this.toStored(key, row);
  }

  private fieldsFor(row: { id: string; tenantId: string }, record: CredentialRecord): OAuthCredentialFields {
    const tokens = record.status === 'needs_sign_in' ? null : record.tokens;
    return {
      status: tokens === null ? 'needs_sign_in' : record.status,
      accessTokenCt: tokens && this.cipher.seal('accessToken', row, tokens.accessToken),
      refreshTokenCt:
        tokens?.refreshToken == null ? null : this.cipher.seal('refreshToken', row, tokens.refreshToken),
      expiresAt: tokens?.expiresAt == null ? null : new Date(tokens.expiresAt),
      scope: tokens?.scope ?? null,
      tokenEndpoint: record.tokenEndpoint,
      revocationEndpoint: record.revocationEndpoint,
      clientId: record.clientId,
      refreshFencingToken:
        tokens !== null && record.status === 'refresh_in_flight' ? record.refreshFencingToken : null,
    };
  }

  private toStored(key: CredentialKey, row: OAuthCredentialRow): StoredCredential {
    const tokens = this.openTokens(row);
    // A ciphertext that does not open (a key gone from the ring, a row tampered with) is a credential that
    // needs sign-in: never a token guessed, never an error with the ciphertext in it.
    const status = tokens === null ? 'needs_sign_in' : row.status;
    return {
      key,
      version: row.version,
      status,
      tokens,
      tokenEndpoint: row.tokenEndpoint,
      revocationEndpoint: row.revocationEndpoint,
      clientId: row.clientId,
      refreshFencingToken: status === 'refresh_in_flight' ? row.refreshFencingToken : null,
    };
  }

  private openTokens(row: OAuthCredentialRow): OAuthTokens | null {
    if (row.status === 'needs_sign_in' || row.accessTokenCt === null) return null;
    const accessToken = this.cipher.open('accessToken', row, row.accessTokenCt);
    if (accessToken === undefined) return null;
    let refreshToken: string | null = null;
    if (row.refreshTokenCt !== null) {
      const opened = this.cipher.open('refreshToken', row, row.refreshTokenCt);
      if (opened === undefined) return null;
      refreshToken = opened;
    }
    return {
      accessToken,
      refreshToken,
      expiresAt: row.expiresAt === null ? null : row.expiresAt.getTime(),
      scope: row.scope,
    };
  }
}
