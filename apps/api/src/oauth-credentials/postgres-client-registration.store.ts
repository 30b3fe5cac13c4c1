// libs/oauth's ClientRegistrationStore over oauth_clients, for one tenant: registrations keyed by issuer (a
// changed issuer finds none), client secrets sealed by OAuthCipher (AAD: table, column, row id, tenant).
import { randomUUID } from 'node:crypto';
import { findOAuthClient, saveOAuthClient, type Database, type OAuthClientRow } from '@gatehouse/db';
import type { ClientRegistrationStore, RegisteredClient } from '@gatehouse/oauth';
import type { OAuthCipher } from './oauth-cipher';

export class PostgresClientRegistrationStore implements ClientRegistrationStore {
  constructor(
    private readonly db: Database,
    private readonly cipher: OAuthCipher,
    private readonly tenantId: string,
  ) {}

  preRegistered(issuer: string): Promise<RegisteredClient | null> {
    return this.find(issuer, 'pre_registered');
  }

  dynamicRegistration(issuer: string): Promise<RegisteredClient | null> {
    return this.find(issuer, 'dynamic');
  }

  /** Either kind, for the exact issuer and client id a sign-in was started with. */
  async byClientId(issuer: string, clientId: string): Promise<RegisteredClient | null> {
    for (const kind of ['pre_registered', 'dynamic'] as const) {
      const client = await this.find(issuer, kind);
      if (client !== null && client.clientId === clientId) return client;
    }
    return null;
  }

  async saveDynamicRegistration(client: RegisteredClient): Promise<void> {
    const id = randomUUID();
    const row = { id, tenantId: this.tenantId };
    await this.db.withTenant(this.tenantId, (tx) =>
      saveOAuthClient(tx, {
        ...row,
        issuer: client.issuer,
        kind: 'dynamic',
        clientId: client.clientId,
        clientSecretCt:
          client.clientSecret === null ? null : this.cipher.seal('clientSecret', row, client.clientSecret),
        tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
      }),
    );
  }

  private async find(issuer: string, kind: OAuthClientRow['kind']): Promise<RegisteredClient | null> {
    const row = await this.db.withTenant(this.tenantId, (tx) => findOAuthClient(tx, issuer, kind));
    if (row === null) return null;
    let clientSecret: string | null = null;
    if (row.clientSecretCt !== null) {
      const opened = this.cipher.open('clientSecret', row, row.clientSecretCt);
      // A secret that does not open is no registration (never a guess, never the bytes in an error).
      if (opened === undefined) return null;
      clientSecret = opened;
    }
    return {
      issuer: row.issuer,
      clientId: row.clientId,
      clientSecret,
      tokenEndpointAuthMethod: row.tokenEndpointAuthMethod,
      kind: row.kind,
    };
  }
}
