// A TokenStore in one process's memory: the port's reference behaviour, a test double for this lib's specs.
// Under testing/, which production code may not import (lint), and not exported from @gatehouse/oauth: a token
// store in one process's memory would lose every credential on restart and split them between replicas.
import { credentialKeyId, type CredentialKey } from '../credential-key';
import type {
  CredentialRecord,
  StoredCredential,
  TokenStore,
  TokenStoreSetResult,
} from '../token-store.port';

export class InMemoryTokenStore implements TokenStore {
  private readonly entries = new Map<string, StoredCredential>();
  // Versions keep increasing across a delete and a new sign-in, so a late writer holding an old version can
  // never match a new credential's (no ABA).
  private readonly lastVersions = new Map<string, number>();

  async get(key: CredentialKey): Promise<StoredCredential | null> {
    return this.entries.get(credentialKeyId(key)) ?? null;
  }

  async set(
    key: CredentialKey,
    record: CredentialRecord,
    expectedVersion: number | null,
  ): Promise<TokenStoreSetResult> {
    const id = credentialKeyId(key);
    const current = this.entries.get(id) ?? null;
    if ((current?.version ?? null) !== expectedVersion)
      return { ok: false, reason: 'version_conflict', current };
    const version = (this.lastVersions.get(id) ?? 0) + 1;
    this.lastVersions.set(id, version);
    this.entries.set(id, { ...record, key, version });
    return { ok: true, version };
  }

  async delete(key: CredentialKey, expectedVersion?: number): Promise<boolean> {
    const id = credentialKeyId(key);
    const current = this.entries.get(id);
    if (!current || (expectedVersion !== undefined && current.version !== expectedVersion)) return false;
    return this.entries.delete(id);
  }
}
