import { Client } from 'pg';
import type { TestEnv } from './test-env';

// A DROP DATABASE waits for a checkpoint (PostgreSQL 15 requests one so no dirty buffer of the database is left
// behind): under a loaded run that took each integration file 0.2-1.3 s of its afterAll. Checkpoints requested at
// the same time are shared, so the run drops its files' copies together in globalTeardown instead. Each copy is
// marked with a comment naming its template (PostgreSQL does not record where a database was copied from), so the
// teardown finds this run's copies, and no other run's.

/** At once: checkpoints requested together are shared, and the server is not flooded with connections. */
const DROPS_AT_ONCE = 8;

const commentFor = (template: string): string => `gatehouse test copy of ${template}`;

function quoteIdentifier(name: string): string {
  // Only names this module's callers made reach here; quoted anyway, as they are interpolated into DDL.
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name))
    throw new Error(`invalid database name: ${JSON.stringify(name)}`);
  return `"${name}"`;
}

async function withAdmin<T>(adminUrl: string, use: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

/** Marks `name` as a copy of `template`, for dropTemplateCopies. */
export async function markTemplateCopy(env: TestEnv, name: string, template: string): Promise<void> {
  const target = quoteIdentifier(name);
  // COMMENT takes no parameters: the literal is built from the template's name, checked to the same strict shape.
  quoteIdentifier(template);
  await withAdmin(env.adminUrl, (admin) =>
    admin.query(`COMMENT ON DATABASE ${target} IS '${commentFor(template)}'`),
  );
}

/** The databases marked as copies of `template`. */
export async function listTemplateCopies(env: TestEnv, template: string): Promise<string[]> {
  return withAdmin(env.adminUrl, async (admin) => {
    const rows = await admin.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE shobj_description(oid, 'pg_database') = $1 ORDER BY datname`,
      [commentFor(template)],
    );
    return rows.rows.map((row) => row.datname);
  });
}

/** Drops every copy of `template` (their connections closed), a few at once. Returns how many it dropped. */
export async function dropTemplateCopies(env: TestEnv, template: string): Promise<number> {
  const names = await listTemplateCopies(env, template);
  const queue = [...names];
  const dropper = async (): Promise<void> => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const target = quoteIdentifier(name);
      await withAdmin(env.adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${target} WITH (FORCE)`));
    }
  };
  await Promise.all(Array.from({ length: Math.min(DROPS_AT_ONCE, names.length) }, dropper));
  return names.length;
}
