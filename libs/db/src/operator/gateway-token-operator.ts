import { Client } from 'pg';

export interface InsertGatewayTokenOptions {
  /** The owner's connection (MIGRATION_DATABASE_URL): only gatehouse_owner may execute the operator functions. */
  ownerUrl: string;
  name: string;
  scopes: string[];
  pool: string | null;
  /** sha256 of the token's secret; the secret itself never reaches the database. */
  secretHash: Uint8Array;
  /** The visible part of the token, for recognizing it in lists and logs. */
  prefix: string;
  expiresAt: Date | null;
}

/**
 * Inserts a tenantless `gateway` token through gh_operator_insert_gateway_token. Gateway tokens are the
 * operator's, never a tenant's: the app role can neither see nor create them. Returns the new token id.
 */
export async function insertGatewayToken(options: InsertGatewayTokenOptions): Promise<string> {
  const client = new Client({ connectionString: options.ownerUrl });
  await client.connect();
  try {
    const result = await client.query<{ id: string }>(
      'SELECT gh_operator_insert_gateway_token($1, $2, $3, $4, $5, $6) AS id',
      [
        options.name,
        options.scopes,
        options.pool,
        Buffer.from(options.secretHash),
        options.prefix,
        options.expiresAt,
      ],
    );
    const id = result.rows[0]?.id;
    if (!id) throw new Error('gateway token insert returned no id');
    return id;
  } finally {
    await client.end();
  }
}

/** Revokes a gateway token; false when there is no such live gateway token. */
export async function revokeGatewayToken(options: { ownerUrl: string; id: string }): Promise<boolean> {
  const client = new Client({ connectionString: options.ownerUrl });
  await client.connect();
  try {
    const result = await client.query<{ revoked: boolean }>(
      'SELECT gh_operator_revoke_gateway_token($1) AS revoked',
      [options.id],
    );
    return result.rows[0]?.revoked ?? false;
  } finally {
    await client.end();
  }
}
