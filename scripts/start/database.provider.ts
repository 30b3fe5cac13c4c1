import { join } from 'node:path';
import { Client } from 'pg';
import { DATABASE_ROLES, databaseNameOf, deriveConnectionUrl } from '@gatehouse/db';
import { startEmbeddedPostgres } from './embedded-postgres.starter';
import type { LocalSecrets } from './local-secrets';
import { findFreePort, isAcceptingConnections } from './port-probe';
import { StartFailure } from './start-failure';

export const LOCAL_DATABASE_NAME = 'gatehouse';
const LOCAL_ADMIN_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

export type ProvidedDatabase = {
  source: 'DATABASE_URL' | 'local' | 'embedded';
  /** A superuser URL when `npm start` may create the roles and the database; undefined when the operator did. */
  adminUrl: string | undefined;
  databaseName: string;
  /** The apps' DATABASE_URL (gatehouse_app). */
  appUrl: string;
  /** The migrations' URL (gatehouse_owner). */
  migrationUrl: string;
  /** Passwords to give the login roles when `adminUrl` creates them. */
  passwords: { owner: string; app: string } | undefined;
  /** The embedded cluster's data directory (it may live outside the checkout: see the placement). */
  dataDir?: string;
};

export type ProvideDatabaseOptions = {
  env: Readonly<Record<string, string | undefined>>;
  root: string;
  secrets: LocalSecrets;
  prefix: string;
  write: (line: string) => void;
  /** Registers the stop of an embedded PostgreSQL we spawn, as soon as it is spawned. */
  onSpawn: (stop: () => Promise<void>) => void;
};

/** URLs of the two login roles in `database`, on the cluster `adminUrl` points at. */
export function roleUrls(
  adminUrl: string,
  database: string,
  passwords: { owner: string; app: string },
): { appUrl: string; migrationUrl: string } {
  return {
    appUrl: deriveConnectionUrl(adminUrl, { database, user: DATABASE_ROLES.app, password: passwords.app }),
    migrationUrl: deriveConnectionUrl(adminUrl, {
      database,
      user: DATABASE_ROLES.owner,
      password: passwords.owner,
    }),
  };
}

/** One short reason for a failed admin login, never the URL (it may hold a password). */
export async function adminLoginProblem(adminUrl: string): Promise<string | undefined> {
  const client = new Client({ connectionString: adminUrl, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    const result = await client.query<{ rolsuper: boolean }>(
      'select rolsuper from pg_roles where rolname = current_user',
    );
    return result.rows[0]?.rolsuper ? undefined : 'the login is not a superuser';
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' ? `login failed (${code})` : 'login failed';
  } finally {
    await client.end().catch(() => undefined);
  }
}

function fromConfiguredUrls(env: ProvideDatabaseOptions['env']): ProvidedDatabase {
  const appUrl = env['DATABASE_URL'] ?? '';
  const migrationUrl = env['MIGRATION_DATABASE_URL'];
  if (!migrationUrl) {
    throw new StartFailure(
      'DATABASE_URL is set but MIGRATION_DATABASE_URL is not: migrations run as the schema owner (gatehouse_owner), never as the app role',
    );
  }
  const databaseName = databaseNameOf(appUrl);
  if (!databaseName) throw new StartFailure('DATABASE_URL names no database');
  return {
    source: 'DATABASE_URL',
    adminUrl: env['DATABASE_ADMIN_URL'] || undefined,
    databaseName,
    appUrl,
    migrationUrl,
    passwords: undefined,
  };
}

/**
 * DATABASE_URL (+ MIGRATION_DATABASE_URL) when set; else the local PostgreSQL on 127.0.0.1:5432 as the
 * `postgres` superuser (or DATABASE_ADMIN_URL); else an embedded PostgreSQL under .gatehouse/pg on a free port.
 * GATEHOUSE_START_POSTGRES=1 asks for the embedded one even when a local server answers.
 */
export async function provideDatabase(options: ProvideDatabaseOptions): Promise<ProvidedDatabase> {
  const { env, secrets } = options;
  if (env['DATABASE_URL']) return fromConfiguredUrls(env);

  const passwords = { owner: secrets.ownerPassword, app: secrets.appPassword };
  const forceEmbedded = env['GATEHOUSE_START_POSTGRES'] === '1';
  const configuredAdmin = env['DATABASE_ADMIN_URL'] || undefined;
  if (configuredAdmin || (!forceEmbedded && (await isAcceptingConnections('127.0.0.1', 5432)))) {
    const adminUrl = configuredAdmin ?? LOCAL_ADMIN_URL;
    const problem = await adminLoginProblem(adminUrl);
    if (problem) {
      const where = configuredAdmin ? 'DATABASE_ADMIN_URL' : 'the PostgreSQL on 127.0.0.1:5432 (as postgres)';
      throw new StartFailure(
        `${where}: ${problem}; set DATABASE_ADMIN_URL to a superuser URL, or DATABASE_URL and MIGRATION_DATABASE_URL, or GATEHOUSE_START_POSTGRES=1 for an embedded PostgreSQL`,
      );
    }
    return {
      source: 'local',
      adminUrl,
      databaseName: LOCAL_DATABASE_NAME,
      passwords,
      ...roleUrls(adminUrl, LOCAL_DATABASE_NAME, passwords),
    };
  }

  const port = await findFreePort({ host: '127.0.0.1', preferred: 5432 });
  if (port === undefined) throw new StartFailure('no free port for the embedded PostgreSQL near 5432');
  const why = forceEmbedded ? 'GATEHOUSE_START_POSTGRES=1' : 'no PostgreSQL on 127.0.0.1:5432';
  options.write(`${options.prefix} ${why}: starting an embedded PostgreSQL on port ${port}\n`);
  const embedded = await startEmbeddedPostgres({
    dataDir: join(options.root, '.gatehouse', 'pg'),
    port,
    superuserPassword: secrets.postgresSuperuserPassword,
    prefix: options.prefix,
    write: options.write,
    onSpawn: options.onSpawn,
  });
  if ('ok' in embedded) throw new StartFailure(embedded.reason);
  return {
    source: 'embedded',
    adminUrl: embedded.adminUrl,
    dataDir: embedded.dataDir,
    databaseName: LOCAL_DATABASE_NAME,
    passwords,
    ...roleUrls(embedded.adminUrl, LOCAL_DATABASE_NAME, passwords),
  };
}
