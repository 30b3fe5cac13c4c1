import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@gatehouse/testing';
import { runRotateKeys, type RotateKeysConfig } from './rotate-keys';

// The CLI wiring against a real database (the rotation itself is tested in libs/db/src/key-rotation).
jest.setTimeout(60_000);

let testDb: TestDatabase;

beforeAll(async () => {
  testDb = await createTestDatabase();
});

afterAll(async () => {
  await testDb?.drop();
});

function config(url: string): RotateKeysConfig {
  return {
    DATABASE_URL: url,
    GATEHOUSE_KEYS: `a:${randomBytes(32).toString('base64')},b:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'b',
    ROTATE_KEYS_BATCH_SIZE: 10,
  };
}

describe('runRotateKeys', () => {
  it('as the app role: rotates the registered columns and reports that no value is on another key', async () => {
    const lines: string[] = [];
    const code = await runRotateKeys(config(testDb.appUrl), { writeLine: (line) => lines.push(line) });
    expect(code).toBe(0);
    expect(lines[0]).toMatch(/^rotate-keys: active key b, keys a,b; \d+ registered column\(s\)$/);
    expect(lines[lines.length - 1]).toBe(
      'rotate-keys: every value is on b; other keys can be removed from GATEHOUSE_KEYS',
    );
  });

  it('refuses to run as the table owner (row-level security must apply)', async () => {
    await expect(runRotateKeys(config(testDb.ownerUrl), { writeLine: () => undefined })).rejects.toThrow();
  });
});
