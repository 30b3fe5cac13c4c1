import { EncryptedColumnRegistry, type EncryptedColumn } from '@gatehouse/crypto';

/**
 * Every column that holds envelope ciphertexts (libs/crypto). Key rotation re-encrypts exactly these, so a
 * column missing here keeps the old key alive: when you add an encrypted column in a migration, add it here in
 * the same change. Written in code (not registered at runtime) so there is no hidden global mutable state and a
 * review sees the full list.
 */
export const ENCRYPTED_COLUMNS: readonly EncryptedColumn[] = Object.freeze([
  { table: 'definition_sources', column: 'document_ct', idColumn: 'id', tenantColumn: 'tenant_id' },
  { table: 'definition_source_versions', column: 'document_ct', idColumn: 'id', tenantColumn: 'tenant_id' },
  { table: 'definition_variables', column: 'value_ct', idColumn: 'id', tenantColumn: 'tenant_id' },
  { table: 'oauth_credentials', column: 'access_token_ct', idColumn: 'id', tenantColumn: 'tenant_id' },
  { table: 'oauth_credentials', column: 'refresh_token_ct', idColumn: 'id', tenantColumn: 'tenant_id' },
  { table: 'oauth_clients', column: 'client_secret_ct', idColumn: 'id', tenantColumn: 'tenant_id' },
]);

/** A fresh registry of ENCRYPTED_COLUMNS; throws (a bug) if an entry is invalid or duplicated. */
export function defaultEncryptedColumns(): EncryptedColumnRegistry {
  return EncryptedColumnRegistry.of(ENCRYPTED_COLUMNS);
}
