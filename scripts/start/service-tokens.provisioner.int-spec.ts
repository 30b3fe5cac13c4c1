import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDatabase, type Database } from '@gatehouse/db';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { DEMO_TENANT_SLUG, seedDemo } from '../../prisma/seed';
import { provisionServiceTokens, type ServiceTokenTarget } from './service-tokens.provisioner';

jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

let testDb: TestDatabase;
let db: Database;
let admin: Client;
let dir: string;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 1 });
  await seedDemo(db);
  admin = new Client({ connectionString: testDb.adminUrl });
  await admin.connect();
  dir = mkdtempSync(join(tmpdir(), 'service-tokens-'));
});

afterAll(async () => {
  await admin?.end();
  await db?.close();
  await testDb?.drop();
  rmSync(dir, { recursive: true, force: true });
});

function target(env: Record<string, string | undefined> = {}): ServiceTokenTarget {
  return {
    database: { appUrl: testDb.appUrl, migrationUrl: testDb.ownerUrl },
    env,
    idsFile: join(dir, 'service-tokens.json'),
    tenantSlug: DEMO_TENANT_SLUG,
    pool: 'default',
  };
}

interface TokenRow {
  id: string;
  kind: string;
  pool: string | null;
  revoked: boolean;
  tenant: string | null;
}

async function tokenBySecret(secret: string): Promise<TokenRow | undefined> {
  const { rows } = await admin.query<TokenRow>(
    `SELECT t.id, t.kind, t.pool, t.revoked_at IS NOT NULL AS revoked, n.slug AS tenant
       FROM api_tokens t LEFT JOIN tenants n ON n.id = t.tenant_id WHERE t.secret_hash = $1`,
    [createHash('sha256').update(secret).digest()],
  );
  return rows[0];
}

describe('provisionServiceTokens', () => {
  it('mints a worker token of the demo tenant and a gateway token on the pool, and keeps only their ids', async () => {
    const first = await provisionServiceTokens(target());
    expect(first.workerToken).toBeDefined();
    expect(first.gatewayToken).toBeDefined();
    const worker = await tokenBySecret(first.workerToken ?? '');
    const gateway = await tokenBySecret(first.gatewayToken ?? '');
    expect(worker).toMatchObject({ kind: 'worker', pool: 'default', revoked: false, tenant: DEMO_TENANT_SLUG });
    expect(gateway).toMatchObject({ kind: 'gateway', pool: 'default', revoked: false, tenant: null });

    const file = join(dir, 'service-tokens.json');
    const stored = readFileSync(file, 'utf8');
    expect(JSON.parse(stored)).toEqual({
      worker: { id: worker?.id, tenant: DEMO_TENANT_SLUG },
      gateway: { id: gateway?.id },
    });
    expect(stored).not.toContain(first.workerToken);
    expect(stored).not.toContain(first.gatewayToken);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(first.lines.join('\n')).not.toContain(first.workerToken);

    // The next start revokes what this one minted and mints afresh.
    const second = await provisionServiceTokens(target());
    expect(second.lines[0]).toBe('revoked 2 service token(s) of the previous start');
    expect((await tokenBySecret(first.workerToken ?? ''))?.revoked).toBe(true);
    expect((await tokenBySecret(first.gatewayToken ?? ''))?.revoked).toBe(true);
    expect((await tokenBySecret(second.workerToken ?? ''))?.revoked).toBe(false);
    expect((await tokenBySecret(second.gatewayToken ?? ''))?.revoked).toBe(false);
  });

  it('uses the tokens the user set and mints nothing for them', async () => {
    const before = await admin.query<{ n: string }>('SELECT count(*) AS n FROM api_tokens');
    const given = await provisionServiceTokens(
      target({ WORKER_TOKEN: 'gh_worker_given', GATEWAY_TOKEN: 'gh_gateway_given' }),
    );
    expect(given.workerToken).toBe('gh_worker_given');
    expect(given.gatewayToken).toBe('gh_gateway_given');
    const after = await admin.query<{ n: string }>('SELECT count(*) AS n FROM api_tokens');
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
    // The previous start's tokens are still revoked: a user who sets their own no longer needs them.
    expect(JSON.parse(readFileSync(join(dir, 'service-tokens.json'), 'utf8'))).toEqual({});
  });
});
