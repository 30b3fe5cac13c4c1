import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { adminLoginProblem } from './database.provider';
import { startEmbeddedPostgres } from './embedded-postgres.starter';
import { findFreePort, isAcceptingConnections } from './port-probe';
import { StartFailure } from './start-failure';

// The test runner's PostgreSQL, found the way `npm start` finds one: TEST_DATABASE_URL, else the local server
// on 127.0.0.1:5432 as the `postgres` superuser, else an embedded PostgreSQL in a temporary directory that
// lives for this run only.

export type ProvidedTestDatabase = {
  /** Superuser URL: the tests create their roles and one database per file through it. */
  adminUrl: string;
  source: 'TEST_DATABASE_URL' | 'local' | 'embedded';
  /** Login role passwords, when the cluster does not trust loopback connections (the embedded one). */
  rolePasswords: { owner: string; app: string } | undefined;
  /** Why a local server that answers was not used, for the summary line. */
  note?: string;
};

export type ProvideTestDatabaseOptions = {
  env: Readonly<Record<string, string | undefined>>;
  prefix: string;
  write: (line: string) => void;
  /** Registers the stop of an embedded PostgreSQL we spawn (and the removal of its data), as soon as spawned. */
  onSpawn: (stop: () => Promise<void>) => void;
};

const LOCAL_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

function secret(): string {
  return randomBytes(18).toString('base64url');
}

export async function provideTestDatabase(options: ProvideTestDatabaseOptions): Promise<ProvidedTestDatabase> {
  const configured = options.env['TEST_DATABASE_URL'];
  if (configured) {
    const problem = await adminLoginProblem(configured);
    if (problem) throw new StartFailure(`TEST_DATABASE_URL: ${problem}; it must be a superuser URL`);
    return { adminUrl: configured, source: 'TEST_DATABASE_URL', rolePasswords: undefined };
  }
  let note: string | undefined;
  if (await isAcceptingConnections('127.0.0.1', 5432)) {
    const problem = await adminLoginProblem(LOCAL_ADMIN_URL);
    if (!problem) return { adminUrl: LOCAL_ADMIN_URL, source: 'local', rolePasswords: undefined };
    note = `the PostgreSQL on 127.0.0.1:5432 refused postgres: ${problem}`;
  }
  const port = await findFreePort({ host: '127.0.0.1', preferred: 55_432 });
  if (port === undefined) throw new StartFailure('no free port for an embedded PostgreSQL near 55432');
  const dataDir = mkdtempSync(join(tmpdir(), 'gatehouse-test-pg-'));
  const removeData = (): void => rmSync(dataDir, { recursive: true, force: true });
  const superuserPassword = secret();
  const embedded = await startEmbeddedPostgres({
    dataDir,
    port,
    superuserPassword,
    prefix: options.prefix,
    write: options.write,
    onSpawn: (stop) => options.onSpawn(() => stop().finally(removeData)),
  });
  if ('ok' in embedded) {
    removeData();
    throw new StartFailure(`${embedded.reason}; or set TEST_DATABASE_URL to a PostgreSQL superuser URL`);
  }
  return {
    adminUrl: embedded.adminUrl,
    source: 'embedded',
    rolePasswords: { owner: secret(), app: secret() },
    ...(note ? { note } : {}),
  };
}
