import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { deriveConnectionUrl, dropDatabase } from '@gatehouse/db';
import { readTestEnv, TEST_DATABASE_TIMEOUT_MS } from '@gatehouse/testing';
import { parseConfig } from '@gatehouse/platform';
import { migrate, migrateConfigSchema } from './migrate';

// Creating a database and migrating it takes seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

const env = readTestEnv();
const name = `gh_t_${randomBytes(6).toString('hex')}`;

afterAll(async () => {
  await dropDatabase({ adminUrl: env.adminUrl, name });
});

describe('scripts/migrate', () => {
  it('with DATABASE_ADMIN_URL creates roles and the database, then migrates; a second run applies nothing', async () => {
    const parsed = parseConfig(migrateConfigSchema, {
      MIGRATION_DATABASE_URL: deriveConnectionUrl(env.adminUrl, {
        database: name,
        user: 'gatehouse_owner',
        password: env.ownerPassword,
      }),
      DATABASE_ADMIN_URL: env.adminUrl,
      DATABASE_OWNER_PASSWORD: env.ownerPassword,
      DATABASE_APP_PASSWORD: env.appPassword,
      LOG_LEVEL: 'silent',
    });
    if (!parsed.ok) throw new Error(parsed.message);
    const first = await migrate(parsed.config);
    expect(first.applied.length).toBeGreaterThanOrEqual(2);
    const second = await migrate(parsed.config);
    expect(second).toEqual({ applied: [], alreadyApplied: first.applied });
    const app = new Client({
      connectionString: deriveConnectionUrl(env.adminUrl, {
        database: name,
        user: 'gatehouse_app',
        password: env.appPassword,
      }),
    });
    await app.connect();
    try {
      expect((await app.query('SELECT count(*)::int AS n FROM tenants')).rows[0]).toEqual({ n: 0 });
    } finally {
      await app.end();
    }
  });

  it('refuses a bad MIGRATION_DATABASE_URL with one line naming the variable, never its value', () => {
    const parsed = parseConfig(migrateConfigSchema, { MIGRATION_DATABASE_URL: 'mysql://secret-host/x' });
    expect(parsed).toMatchObject({ ok: false });
    const message = parsed.ok ? '' : parsed.message;
    expect(message).toContain('MIGRATION_DATABASE_URL');
    expect(message).not.toContain('secret-host');
    expect(message).not.toContain('\n');
  });
});
