import { Client } from 'pg';
import { DATABASE_ROLES, ROLE_SETUP_LOCK_KEY } from './database-roles';
import { isLostCreateRace } from './pg-errors';

export interface SetupDatabaseRolesOptions {
  /** A superuser (or CREATEROLE) connection; never the app's. */
  adminUrl: string;
  /** Passwords for the login roles; omitted means no password (trust/peer auth, local development). */
  passwords?: { owner?: string; app?: string };
}

interface RoleSpec {
  name: string;
  login: boolean;
  password: string | undefined;
}

interface RoleRow {
  rolsuper: boolean;
  rolbypassrls: boolean;
  rolcanlogin: boolean;
  rolcreatedb: boolean;
  rolcreaterole: boolean;
  rolreplication: boolean;
}

/**
 * Creates (or corrects) the cluster-wide roles and makes gatehouse_owner a member of gatehouse_auth, so the
 * owner can hand the definer functions to it. Idempotent and safe to call from parallel processes: callers on
 * the same admin database queue on an advisory lock, and a CREATE that still loses a race (callers on different
 * admin databases) is treated as done. Roles are never created in migrations: they are cluster-wide, while
 * migrations run per database.
 */
export async function setupDatabaseRoles(options: SetupDatabaseRolesOptions): Promise<void> {
  const specs: RoleSpec[] = [
    { name: DATABASE_ROLES.owner, login: true, password: options.passwords?.owner },
    { name: DATABASE_ROLES.app, login: true, password: options.passwords?.app },
    { name: DATABASE_ROLES.auth, login: false, password: undefined },
  ];
  const client = new Client({ connectionString: options.adminUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [ROLE_SETUP_LOCK_KEY]);
    for (const spec of specs) await ensureRole(client, spec);
    await ensureMembership(client, DATABASE_ROLES.auth, DATABASE_ROLES.owner);
  } finally {
    // Ending the session releases the advisory lock.
    await client.end();
  }
}

async function ensureRole(client: Client, spec: RoleSpec): Promise<void> {
  // Every attribute is stated, so a role that exists with a dangerous one (SUPERUSER, BYPASSRLS) is corrected.
  const attributes = `${spec.login ? 'LOGIN' : 'NOLOGIN'} NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOREPLICATION`;
  const password = spec.password ? ` PASSWORD ${client.escapeLiteral(spec.password)}` : '';
  const existing = await readRole(client, spec.name);
  if (!existing) {
    try {
      await client.query(`CREATE ROLE ${spec.name} ${attributes}${password}`);
      return;
    } catch (error) {
      if (!isLostCreateRace(error)) throw error;
    }
  }
  const row = existing ?? (await readRole(client, spec.name));
  // ALTER only when something differs: concurrent ALTERs of one role can fail with "tuple concurrently updated".
  if (!row || password !== '' || !hasExpectedAttributes(row, spec.login)) {
    await client.query(`ALTER ROLE ${spec.name} ${attributes}${password}`);
  }
}

async function readRole(client: Client, name: string): Promise<RoleRow | undefined> {
  const result = await client.query<RoleRow>(
    `SELECT rolsuper, rolbypassrls, rolcanlogin, rolcreatedb, rolcreaterole, rolreplication
       FROM pg_roles WHERE rolname = $1`,
    [name],
  );
  return result.rows[0];
}

function hasExpectedAttributes(row: RoleRow, login: boolean): boolean {
  return (
    !row.rolsuper &&
    !row.rolbypassrls &&
    row.rolcanlogin === login &&
    !row.rolcreatedb &&
    !row.rolcreaterole &&
    !row.rolreplication
  );
}

async function ensureMembership(client: Client, role: string, member: string): Promise<void> {
  const result = await client.query(
    `SELECT 1 FROM pg_auth_members m
       JOIN pg_roles r ON r.oid = m.roleid
       JOIN pg_roles u ON u.oid = m.member
      WHERE r.rolname = $1 AND u.rolname = $2`,
    [role, member],
  );
  if (result.rowCount) return;
  try {
    await client.query(`GRANT ${role} TO ${member}`);
  } catch (error) {
    if (!isLostCreateRace(error)) throw error;
  }
}
