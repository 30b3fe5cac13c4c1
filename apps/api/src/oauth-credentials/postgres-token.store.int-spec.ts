import { Client } from 'pg';
import { createDatabase, type Database } from '@gatehouse/db';
import type { CredentialKey, CredentialRecord } from '@gatehouse/oauth';
import {
  createTestDatabase,
  createTestTenant,
  createTestUser,
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import { testOAuthCipher } from '../oauth/oauth-test-cipher';
import { PostgresTokenStore } from './postgres-token.store';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;
let owner: Client;
let store: PostgresTokenStore;
let tenantId: string;
let otherTenantId: string;
let userId: string;
let workspaceId: string;

const ACCESS = 'canary-access-token-5f1d0c1e';
const REFRESH = 'canary-refresh-token-9a7b3e2d';

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl });
  // The superuser reads past row-level security (what an attacker with the database would see).
  owner = new Client({ connectionString: testDb.adminUrl });
  await owner.connect();
  store = new PostgresTokenStore(db, testOAuthCipher());
  tenantId = (await createTestTenant(db)).id;
  otherTenantId = (await createTestTenant(db)).id;
  userId = (await createTestUser(db, tenantId)).id;
  workspaceId = (await createTestWorkspace(db, tenantId)).id;
});

afterAll(async () => {
  await owner?.end();
  await db?.close();
  await testDb?.drop();
});

let keys = 0;
function keyFor(overrides: Partial<CredentialKey> = {}): CredentialKey {
  keys += 1;
  return {
    tenantId,
    subject: { kind: 'user', userId },
    serverIdentity: `server-identity-${keys}`,
    resource: 'https://mcp.example.test/mcp',
    issuer: 'https://issuer.example.test',
    ...overrides,
  };
}

function record(overrides: Partial<CredentialRecord> = {}): CredentialRecord {
  return {
    status: 'active',
    tokens: { accessToken: ACCESS, refreshToken: REFRESH, expiresAt: 1_900_000_000_000, scope: 'mcp:tools' },
    tokenEndpoint: 'https://issuer.example.test/token',
    revocationEndpoint: 'https://issuer.example.test/revoke',
    clientId: 'client-1',
    refreshFencingToken: null,
    ...overrides,
  };
}

describe('PostgresTokenStore (the TokenStore port over oauth_credentials)', () => {
  it('creates only where none exists, reads back what it wrote, and compares versions on every set', async () => {
    const key = keyFor();
    expect(await store.get(key)).toBeNull();
    const created = await store.set(key, record(), null);
    expect(created).toEqual({ ok: true, version: expect.any(Number) });
    if (!created.ok) return;
    expect(await store.get(key)).toEqual({ ...record(), key, version: created.version });

    const again = await store.set(key, record(), null);
    expect(again).toMatchObject({
      ok: false,
      reason: 'version_conflict',
      current: { version: created.version },
    });
    const stale = await store.set(key, record({ clientId: 'late' }), created.version - 1);
    expect(stale).toMatchObject({ ok: false, reason: 'version_conflict' });

    const marked = await store.set(
      key,
      record({ status: 'refresh_in_flight', refreshFencingToken: '42' }),
      created.version,
    );
    expect(marked).toEqual({ ok: true, version: expect.any(Number) });
    if (!marked.ok) return;
    expect(marked.version).toBeGreaterThan(created.version);
    expect(await store.get(key)).toMatchObject({ status: 'refresh_in_flight', refreshFencingToken: '42' });

    const spent = await store.set(key, record({ status: 'needs_sign_in', tokens: null }), marked.version);
    expect(spent.ok).toBe(true);
    expect(await store.get(key)).toMatchObject({ status: 'needs_sign_in', tokens: null });
  });

  it('never repeats a version for a key, not even after a delete and a new sign-in (no ABA)', async () => {
    const key = keyFor();
    const first = await store.set(key, record(), null);
    if (!first.ok) throw new Error('conflict');
    expect(await store.delete(key, first.version + 1)).toBe(false);
    expect(await store.delete(key, first.version)).toBe(true);
    expect(await store.delete(key)).toBe(false);
    const second = await store.set(key, record(), null);
    if (!second.ok) throw new Error('conflict');
    expect(second.version).toBeGreaterThan(first.version);
    // A late writer holding the first credential's version cannot touch the new one.
    expect(await store.set(key, record({ clientId: 'late' }), first.version)).toMatchObject({ ok: false });
  });

  it('keys by subject, server identity, canonical URL and issuer: a different part is another credential', async () => {
    const key = keyFor();
    await store.set(key, record(), null);
    const others: CredentialKey[] = [
      { ...key, subject: { kind: 'workspace', workspaceId } },
      { ...key, serverIdentity: `${key.serverIdentity}-shadow` },
      { ...key, resource: 'https://mcp.example.test/other' },
      { ...key, issuer: 'https://issuer.example.test/other' },
      { ...key, tenantId: otherTenantId },
    ];
    for (const other of others) expect(await store.get(other)).toBeNull();
    const workspace = await store.set(others[0]!, record({ clientId: 'shared' }), null);
    expect(workspace.ok).toBe(true);
    expect(await store.get(others[0]!)).toMatchObject({ clientId: 'shared' });
    expect(await store.get(key)).toMatchObject({ clientId: 'client-1' });
  });

  it('keeps tokens only as ciphertext bound to their row: nowhere in plaintext, and a copied ciphertext does not open', async () => {
    const key = keyFor();
    const target = keyFor();
    await store.set(key, record(), null);
    await store.set(target, record({ tokens: { ...record().tokens!, accessToken: 'other-access' } }), null);
    const dump = await owner.query<{ row: string }>(
      'SELECT row_to_json(c)::text AS row FROM oauth_credentials c',
    );
    expect(dump.rows.length).toBeGreaterThanOrEqual(2);
    const text = dump.rows.map((r) => r.row).join('\n');
    expect(text).toContain(key.serverIdentity);
    expect(text).not.toContain(ACCESS);
    expect(text).not.toContain(REFRESH);
    expect(text).not.toContain(Buffer.from(ACCESS).toString('hex'));

    // Another row's access-token ciphertext pasted into this one: the AAD (row id) refuses it.
    await owner.query(
      `UPDATE oauth_credentials SET access_token_ct = (SELECT access_token_ct FROM oauth_credentials
         WHERE server_identity = $1) WHERE server_identity = $2`,
      [key.serverIdentity, target.serverIdentity],
    );
    expect(await store.get(target)).toMatchObject({ status: 'needs_sign_in', tokens: null });
    // The refresh token moved to the access-token column of its own row does not open either (column in AAD).
    await owner.query(
      'UPDATE oauth_credentials SET access_token_ct = refresh_token_ct WHERE server_identity = $1',
      [key.serverIdentity],
    );
    expect(await store.get(key)).toMatchObject({ status: 'needs_sign_in', tokens: null });
  });

  it('answers a conflict when another process wrote between its read and its write', async () => {
    const key = keyFor();
    const created = await store.set(key, record(), null);
    if (!created.ok) throw new Error('conflict');
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store.set(key, record({ clientId: `c${i}` }), created.version)),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toHaveLength(7);
  });
});
