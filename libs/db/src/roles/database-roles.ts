/**
 * The three cluster-wide roles. Their names are fixed because the migrations grant to them by name.
 * - owner: owns the schema and runs migrations (MIGRATION_DATABASE_URL)
 * - app: the app's DATABASE_URL; no superuser, no BYPASSRLS, owns nothing
 * - auth: cannot log in; owns the SECURITY DEFINER lookups whose policies read across tenants
 */
export const DATABASE_ROLES = {
  owner: 'gatehouse_owner',
  app: 'gatehouse_app',
  auth: 'gatehouse_auth',
} as const;

export type DatabaseRoleName = (typeof DATABASE_ROLES)[keyof typeof DATABASE_ROLES];

/**
 * Advisory lock key that serializes cluster-wide role and database setup of concurrent callers (parallel test
 * files, several replicas starting at once) on the same admin database.
 */
export const ROLE_SETUP_LOCK_KEY = 0x6768_7201; // "ghr" + 1
