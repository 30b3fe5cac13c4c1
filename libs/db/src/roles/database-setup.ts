import { Client } from 'pg';
import { deriveConnectionUrl } from './connection-url';
import { DATABASE_ROLES, ROLE_SETUP_LOCK_KEY } from './database-roles';
import { isLostCreateRace } from './pg-errors';

export interface EnsureDatabaseOptions {
  /** A superuser connection (any database of the cluster, usually `postgres`). */
  adminUrl: string;
  /** Lower-case letters, digits and `_`, starting with a letter or `_`; at most 63 characters. */
  name: string;
}

export interface DropDatabaseOptions {
  adminUrl: string;
  name: string;
}

const DATABASE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * Creates the database owned by gatehouse_owner if it is missing (run setupDatabaseRoles first), hands its
 * `public` schema to the owner, and limits who may connect: only the owner and the app role (PUBLIC loses
 * CONNECT and TEMPORARY). Idempotent; a concurrent creator winning the race is fine.
 */
export async function ensureDatabase(options: EnsureDatabaseOptions): Promise<{ created: boolean }> {
  const name = assertDatabaseName(options.name);
  const { owner, app } = DATABASE_ROLES;
  let created = false;
  const admin = new Client({ connectionString: options.adminUrl });
  await admin.connect();
  try {
    await admin.query('SELECT pg_advisory_lock($1)', [ROLE_SETUP_LOCK_KEY]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!exists.rowCount) {
      try {
        await admin.query(`CREATE DATABASE "${name}" OWNER ${owner}`);
        created = true;
      } catch (error) {
        if (!isLostCreateRace(error)) throw error;
      }
    }
    await admin.query(`ALTER DATABASE "${name}" OWNER TO ${owner}`);
    await admin.query(`REVOKE ALL ON DATABASE "${name}" FROM PUBLIC`);
    await admin.query(`GRANT CONNECT ON DATABASE "${name}" TO ${app}`);
  } finally {
    await admin.end();
  }
  // Before PostgreSQL 15 `public` belonged to the bootstrap superuser; the owner must own it (directly or as
  // pg_database_owner) to lock it down in the migrations (REVOKE ... FROM PUBLIC).
  const inDatabase = new Client({
    connectionString: deriveConnectionUrl(options.adminUrl, { database: name }),
  });
  await inDatabase.connect();
  try {
    const schema = await inDatabase.query<{ owner: string }>(
      `SELECT nspowner::regrole::text AS owner FROM pg_namespace WHERE nspname = 'public'`,
    );
    const current = schema.rows[0]?.owner;
    if (current !== owner && current !== 'pg_database_owner') {
      await inDatabase.query(`ALTER SCHEMA public OWNER TO ${owner}`);
    }
  } finally {
    await inDatabase.end();
  }
  return { created };
}

/** Drops the database, disconnecting its sessions (tests). Missing is fine. */
export async function dropDatabase(options: DropDatabaseOptions): Promise<void> {
  const name = assertDatabaseName(options.name);
  const admin = new Client({ connectionString: options.adminUrl });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

function assertDatabaseName(name: string): string {
  // Interpolated into DDL (identifiers cannot be parameters), so only a strict shape is accepted.
  if (!DATABASE_NAME.test(name)) throw new Error(`invalid database name: ${JSON.stringify(name)}`);
  return name;
}
