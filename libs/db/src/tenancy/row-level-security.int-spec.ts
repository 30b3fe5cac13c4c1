import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, TEST_DATABASE_TIMEOUT_MS, type TestDatabase } from '@gatehouse/testing';
import { createDatabase, type Database, type LookupQuery } from '../database';
import { insertGatewayToken } from '../operator/gateway-token-operator';
import { seedTenantRows, type TenantRows } from './tenant-rows.fixtures';

// Creating databases and the first Prisma connection take seconds on a busy machine (jest's default is 5 s).
jest.setTimeout(TEST_DATABASE_TIMEOUT_MS);

// Proves the isolation at the database level, as gatehouse_app over plain pg: what the app could do with any
// query whatsoever, not only through our repositories.

let testDb: TestDatabase;
let db: Database;
let app: Client;
let admin: Client;
let a: TenantRows;
let b: TenantRows;

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  a = await seedTenantRows(db, 'alpha');
  b = await seedTenantRows(db, 'bravo');
  await insertGatewayToken({
    ownerUrl: testDb.ownerUrl,
    name: 'edge',
    scopes: ['tokens:introspect'],
    pool: null,
    secretHash: randomBytes(32),
    prefix: 'gh_g_x',
    expiresAt: null,
  });
  app = new Client({ connectionString: testDb.appUrl });
  admin = new Client({ connectionString: testDb.adminUrl });
  await Promise.all([app.connect(), admin.connect()]);
});

afterAll(async () => {
  await Promise.all([app?.end(), admin?.end(), db?.close()]);
  await testDb?.drop();
});

/** Runs statements as the app in one transaction with the given tenant (and user), then rolls back. */
async function asApp<T>(tenantId: string | null, fn: () => Promise<T>, userId = ''): Promise<T> {
  await app.query('BEGIN');
  try {
    await app.query("SELECT set_config('app.tenant_id', $1, true), set_config('app.user_id', $2, true)", [
      tenantId ?? '',
      userId,
    ]);
    return await fn();
  } finally {
    await app.query('ROLLBACK');
  }
}

async function count(client: Client, sql: string, params: unknown[] = []): Promise<number> {
  const result = await client.query<{ n: string }>(`SELECT count(*) AS n FROM ${sql}`, params);
  return Number(result.rows[0]?.n);
}

async function rlsTables(): Promise<string[]> {
  const result = await admin.query<{ relname: string }>(
    `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'r' AND c.relrowsecurity ORDER BY c.relname`,
  );
  return result.rows.map((r) => r.relname);
}

/** SQLSTATE of a failed statement (run in a savepoint so the transaction stays usable). */
async function sqlStateOf(sql: string, params: unknown[]): Promise<string | undefined> {
  await app.query('SAVEPOINT attempt');
  try {
    await app.query(sql, params);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  } finally {
    await app.query('ROLLBACK TO SAVEPOINT attempt');
  }
}

describe('row-level security coverage', () => {
  it('is enabled and forced on every table with a tenant_id, on tenants and users, and on all but the history', async () => {
    const result = await admin.query<{ relname: string; rls: boolean; forced: boolean; has_tenant: boolean }>(
      `SELECT c.relname, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced,
              EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'tenant_id'
                        AND NOT a.attisdropped) AS has_tenant
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
    );
    const withTenant = result.rows.filter((r) => r.has_tenant);
    expect(withTenant.length).toBeGreaterThanOrEqual(7);
    for (const row of [
      ...withTenant,
      ...result.rows.filter((r) => ['tenants', 'users'].includes(r.relname)),
    ]) {
      expect({ table: row.relname, rls: row.rls, forced: row.forced }).toEqual({
        table: row.relname,
        rls: true,
        forced: true,
      });
    }
    const unprotected = result.rows.filter((r) => !r.rls || !r.forced).map((r) => r.relname);
    expect(unprotected).toEqual(['_prisma_migrations']);
  });

  it('gives the app no privilege on the migration history', async () => {
    await expect(app.query('SELECT * FROM _prisma_migrations')).rejects.toMatchObject({ code: '42501' });
  });
});

describe('the app role with no tenant set', () => {
  it('reads zero rows of every tenant-scoped table, though every one has rows', async () => {
    const tables = await rlsTables();
    expect(tables).toEqual(expect.arrayContaining(['tenants', 'users', 'api_tokens', 'audit_events']));
    for (const table of tables) {
      expect({ table, rows: await count(admin, `"${table}"`) }).toEqual({ table, rows: expect.any(Number) });
      expect(await count(admin, `"${table}"`)).toBeGreaterThan(0);
      const visible = await asApp(null, () => count(app, `"${table}"`));
      expect({ table, visible }).toEqual({ table, visible: 0 });
    }
  });

  it('reads zero rows also when app.tenant_id was never set in the session', async () => {
    const fresh = new Client({ connectionString: testDb.appUrl });
    await fresh.connect();
    try {
      for (const table of await rlsTables())
        expect({ table, n: await count(fresh, `"${table}"`) }).toEqual({ table, n: 0 });
    } finally {
      await fresh.end();
    }
  });
});

describe('tenant A context', () => {
  it('reads its own rows and none of B in every tenant-scoped table', async () => {
    for (const table of await rlsTables()) {
      const column = table === 'tenants' ? 'id' : 'tenant_id';
      if (table === 'users') continue; // no tenant column: covered below
      const own = await asApp(a.tenantId, () => count(app, `"${table}" WHERE ${column} = $1`, [a.tenantId]));
      const other = await asApp(a.tenantId, () =>
        count(app, `"${table}" WHERE ${column} = $1`, [b.tenantId]),
      );
      const all = await asApp(a.tenantId, () => count(app, `"${table}"`));
      const bOwn = await asApp(b.tenantId, () => count(app, `"${table}" WHERE ${column} = $1`, [b.tenantId]));
      expect({ table, own, other, all, bOwn }).toEqual({
        table,
        own: all,
        other: 0,
        all: expect.any(Number),
        bOwn: expect.any(Number),
      });
      expect({ table, own: own > 0, bOwn: bOwn > 0 }).toEqual({ table, own: true, bOwn: true });
    }
  });

  it('sees users of its tenant only (or the user set as app.user_id)', async () => {
    const users = await asApp(
      a.tenantId,
      async () => (await app.query<{ id: string }>('SELECT id FROM users')).rows,
    );
    expect(users.map((u) => u.id)).toEqual([a.userId]);
    const self = await asApp(a.tenantId, () => count(app, 'users WHERE id = $1', [b.userId]), b.userId);
    expect(self).toBe(1);
  });

  it("cannot insert a row carrying B's tenant_id into any tenant-scoped table", async () => {
    const statements: Record<string, [string, unknown[]]> = {
      tenants: [
        'INSERT INTO tenants (id, slug, name) VALUES ($1, $2, $3)',
        [b.tenantId, `x-${randomUUID()}`, 'x'],
      ],
      memberships: [
        "INSERT INTO memberships (id, tenant_id, user_id, role) VALUES ($1, $2, $3, 'admin')",
        [randomUUID(), b.tenantId, a.userId],
      ],
      sessions: [
        "INSERT INTO sessions (id, tenant_id, user_id, secret_hash, csrf_hash, expires_at) VALUES ($1, $2, $3, $4, $4, now() + interval '1 hour')",
        [randomUUID(), b.tenantId, b.userId, randomBytes(32)],
      ],
      api_tokens: [
        "INSERT INTO api_tokens (id, tenant_id, kind, name, secret_hash, prefix) VALUES ($1, $2, 'agent', 'x', $3, 'p')",
        [randomUUID(), b.tenantId, randomBytes(32)],
      ],
      workspaces: [
        'INSERT INTO workspaces (id, tenant_id, name) VALUES ($1, $2, $3)',
        [randomUUID(), b.tenantId, 'sneaky'],
      ],
      workspace_members: [
        'INSERT INTO workspace_members (tenant_id, workspace_id, user_id) VALUES ($1, $2, $3)',
        [b.tenantId, b.workspaceId, a.userId],
      ],
      audit_events: [
        "INSERT INTO audit_events (id, tenant_id, seq, actor_type, action, target_type, outcome, prev_hash, hash) VALUES ($1, $2, 99, 'user', 'x', 'x', 'success', $3, $3)",
        [randomUUID(), b.tenantId, randomBytes(32)],
      ],
      audit_heads: [
        'INSERT INTO audit_heads (tenant_id, seq, hash) VALUES ($1, 9, $2)',
        [b.tenantId, randomBytes(32)],
      ],
      definition_sources: [
        "INSERT INTO definition_sources (id, tenant_id, tier, origin, document_ct, readability) VALUES ($1, $2, 'managed', 'managed:sneaky', $3, 'readable')",
        [randomUUID(), b.tenantId, randomBytes(32)],
      ],
      definition_source_versions: [
        `INSERT INTO definition_source_versions (id, tenant_id, source_id, version, document_ct, entries, problems)
         SELECT $1, $2, id, 99, $3, 0, 0 FROM definition_sources LIMIT 1`,
        [randomUUID(), b.tenantId, randomBytes(32)],
      ],
      definition_variables: [
        "INSERT INTO definition_variables (id, tenant_id, scope, holder, name, value_ct) VALUES ($1, $2, 'tenant', 'tenant', 'SNEAKY', $3)",
        [randomUUID(), b.tenantId, randomBytes(32)],
      ],
      disable_overlays: [
        "INSERT INTO disable_overlays (id, tenant_id, scope, holder, workspace_id, server_name) VALUES ($1, $2, 'workspace', 'workspace', $3, 'x')",
        [randomUUID(), b.tenantId, b.workspaceId],
      ],
      host_policies: ['INSERT INTO host_policies (tenant_id, four_eyes) VALUES ($1, true)', [b.tenantId]],
      approval_requests: [
        `INSERT INTO approval_requests (id, tenant_id, workspace_id, identity_key, open_key, server_name, source_tier,
           source_origin, definition_fingerprint, security_identity, projection, trigger)
         VALUES ($1, $2, $3, $4, $4, 'x', 'project', 'project:x', 'fp', 'sid', '{}', 'source_written')`,
        [randomUUID(), b.tenantId, b.workspaceId, `aid:v1:${randomBytes(32).toString('hex')}`],
      ],
      approvals: [
        `INSERT INTO approvals (id, tenant_id, workspace_id, identity_key, server_name, source_tier, source_origin,
           definition_fingerprint, security_identity, projection, decision, decided_by)
         VALUES ($1, $2, $3, $4, 'x', 'project', 'project:x', 'fp', 'sid', '{}', 'approved', $5)`,
        [randomUUID(), b.tenantId, b.workspaceId, `aid:v1:${randomBytes(32).toString('hex')}`, a.userId],
      ],
      definition_entry_authors: [
        "INSERT INTO definition_entry_authors (tenant_id, origin, entry_name, user_id) VALUES ($1, 'managed:x', 'x', $2)",
        [b.tenantId, a.userId],
      ],
      invitations: [
        "INSERT INTO invitations (id, tenant_id, email, role, secret_hash, expires_at) VALUES ($1, $2, 'x@example.test', 'owner', $3, now() + interval '1 hour')",
        [randomUUID(), b.tenantId, randomBytes(32)],
      ],
      revocation_events: [
        "INSERT INTO revocation_events (tenant_id, kind, subject) VALUES ($1, 'host_policy_changed', '{}')",
        [b.tenantId],
      ],
      leases: [
        `INSERT INTO leases (id, tenant_id, workspace_id, token_id, token_kind, pool, server_name, source_tier,
           source_origin, definition_fingerprint, security_identity, approval_id, transport, expires_at)
         VALUES ($1, $2, $3, $4, 'worker', 'default', 'x', 'project', 'project:x', 'fp', 'sid', $1, 'http',
           now() + interval '1 hour')`,
        [randomUUID(), b.tenantId, b.workspaceId, b.tokenId],
      ],
      oauth_credentials: [
        `INSERT INTO oauth_credentials (id, tenant_id, subject_kind, subject, subject_user_id, server_identity,
           resource, issuer, status, access_token_ct, token_endpoint, client_id)
         VALUES ($1, $2, 'user', $5, $3, 'sid', 'https://x.test/mcp', 'https://i.test', 'active',
           $4, 'https://i.test/token', 'c')`,
        [randomUUID(), b.tenantId, b.userId, randomBytes(32), `user:${b.userId}`],
      ],
      catalog_snapshots: [
        `INSERT INTO catalog_snapshots (id, tenant_id, workspace_id, server_name, definition_fingerprint,
           principal_key, lease_id, protocol_version, server_version, document, complete, stale, fetched_at)
         VALUES ($1, $2, $3, 'x', 'fp', 'workspace', $1, 'p', 's', '{}', true, false, now())`,
        [randomUUID(), b.tenantId, b.workspaceId],
      ],
      server_probes: [
        `INSERT INTO server_probes (id, tenant_id, workspace_id, server_name, definition_fingerprint,
           principal_key, lease_id, state, probed_at)
         VALUES ($1, $2, $3, 'x', 'fp', 'workspace', $1, 'ready', now())`,
        [randomUUID(), b.tenantId, b.workspaceId],
      ],
      catalog_discovery_failures: [
        `INSERT INTO catalog_discovery_failures (id, tenant_id, workspace_id, server_name, definition_fingerprint,
           principal_key, lease_id, failure_class, reason, failed_at)
         VALUES ($1, $2, $3, 'x', 'fp', 'workspace', $1, 'protocol', 'protocol_version_refused', now())`,
        [randomUUID(), b.tenantId, b.workspaceId],
      ],
      oauth_clients: [
        "INSERT INTO oauth_clients (id, tenant_id, issuer, kind, client_id, token_endpoint_auth_method) VALUES ($1, $2, 'https://i.test', 'dynamic', 'c', 'none')",
        [randomUUID(), b.tenantId],
      ],
      users: [
        "INSERT INTO users (id, email, display_name, password_hash) VALUES ($1, $2, 'x', 'x')",
        [randomUUID(), `x-${randomUUID()}@example.test`],
      ],
    };
    // A new tenant table without a case here fails this test.
    expect(Object.keys(statements).sort()).toEqual(await rlsTables());
    for (const [table, [sql, params]] of Object.entries(statements)) {
      const code = await asApp(a.tenantId, () => sqlStateOf(sql, params), a.userId);
      expect({ table, code }).toEqual({ table, code: '42501' });
    }
  });

  it("cannot move its rows to B, nor change or delete B's rows", async () => {
    for (const table of await rlsTables()) {
      if (table === 'users') continue;
      const column = table === 'tenants' ? 'id' : 'tenant_id';
      const [moveCode, changed, deleted] = await asApp(a.tenantId, async () => [
        await sqlStateOf(`UPDATE "${table}" SET ${column} = $1 WHERE ${column} = $2`, [
          b.tenantId,
          a.tenantId,
        ]),
        await sqlStateOf(`UPDATE "${table}" SET ${column} = ${column} WHERE ${column} = $1`, [
          b.tenantId,
        ]).then(
          async (code) =>
            code ??
            (
              await app.query(`UPDATE "${table}" SET ${column} = ${column} WHERE ${column} = $1`, [
                b.tenantId,
              ])
            ).rowCount,
        ),
        await sqlStateOf(`DELETE FROM "${table}" WHERE ${column} = $1`, [b.tenantId]).then(
          async (code) =>
            code ?? (await app.query(`DELETE FROM "${table}" WHERE ${column} = $1`, [b.tenantId])).rowCount,
        ),
      ]);
      // audit_events is append-only and approvals are history: UPDATE of tenant_id and DELETE are not even
      // granted (also 42501). Approval requests are closed, never deleted: no DELETE either.
      // The revocation ledger is append-only for the app (positions are the sequencer's).
      // Leases are history too: only their expiry, release and revocation columns change. A source's stored
      // versions are never changed, only pruned (the oldest beyond the kept number).
      const notUpdatable =
        table === 'audit_events' ||
        table === 'approvals' ||
        table === 'revocation_events' ||
        table === 'leases' ||
        table === 'definition_source_versions';
      // Authorship records outlive the entries they name (four-eyes reads them): no DELETE either. Invitations
      // are revoked or accepted, never deleted.
      const notDeletable =
        (notUpdatable && table !== 'definition_source_versions') ||
        table === 'approval_requests' ||
        table === 'definition_entry_authors' ||
        table === 'invitations';
      expect({ table, moveCode, changed, deleted }).toEqual({
        table,
        moveCode: '42501',
        changed: notUpdatable ? '42501' : 0,
        deleted: notDeletable ? '42501' : 0,
      });
    }
    expect(await count(admin, 'workspaces WHERE tenant_id = $1', [b.tenantId])).toBe(1);
  });

  it('cannot change or delete a user of B, nor another user of its own tenant', async () => {
    const other = randomUUID();
    const results = await asApp(
      a.tenantId,
      async () => [
        (await app.query("UPDATE users SET display_name = 'x' WHERE id = $1", [b.userId])).rowCount,
        (await app.query('DELETE FROM users WHERE id = $1', [b.userId])).rowCount,
        (await app.query("UPDATE users SET display_name = 'x' WHERE id = $1", [a.userId])).rowCount,
      ],
      other,
    );
    expect(results).toEqual([0, 0, 0]);
    const own = await asApp(
      a.tenantId,
      async () =>
        (await app.query("UPDATE users SET display_name = 'renamed' WHERE id = $1", [a.userId])).rowCount,
      a.userId,
    );
    expect(own).toBe(1);
  });

  it('cannot rewrite or delete its own approvals: only revoking them (revoked_at, revoked_by) is granted', async () => {
    const [decision, decidedBy, identity, deleted, revoked] = await asApp(
      a.tenantId,
      async () => [
        await sqlStateOf("UPDATE approvals SET decision = 'denied' WHERE id = $1", [a.approvalId]),
        await sqlStateOf('UPDATE approvals SET decided_by = $2 WHERE id = $1', [a.approvalId, randomUUID()]),
        await sqlStateOf("UPDATE approvals SET definition_fingerprint = 'other' WHERE id = $1", [
          a.approvalId,
        ]),
        await sqlStateOf('DELETE FROM approvals WHERE id = $1', [a.approvalId]),
        (
          await app.query('UPDATE approvals SET revoked_at = now(), revoked_by = $2 WHERE id = $1', [
            a.approvalId,
            a.userId,
          ])
        ).rowCount,
      ],
      a.userId,
    );
    expect({ decision, decidedBy, identity, deleted, revoked }).toEqual({
      decision: '42501',
      decidedBy: '42501',
      identity: '42501',
      deleted: '42501',
      revoked: 1,
    });
    const stored = await admin.query<{ decision: string; revoked_at: Date | null }>(
      'SELECT decision, revoked_at FROM approvals WHERE id = $1',
      [a.approvalId],
    );
    expect(stored.rows).toEqual([{ decision: 'approved', revoked_at: null }]);
  });

  it('never sees gateway tokens (tenant_id NULL)', async () => {
    expect(await count(admin, 'api_tokens WHERE tenant_id IS NULL')).toBe(1);
    expect(await asApp(a.tenantId, () => count(app, 'api_tokens WHERE tenant_id IS NULL'))).toBe(0);
    const code = await asApp(a.tenantId, () =>
      sqlStateOf(
        "INSERT INTO api_tokens (id, tenant_id, kind, name, secret_hash, prefix) VALUES ($1, NULL, 'gateway', 'x', $2, 'p')",
        [randomUUID(), randomBytes(32)],
      ),
    );
    expect(code).toBe('42501');
  });

  it('cannot call the operator functions', async () => {
    const code = await asApp(null, () =>
      sqlStateOf("SELECT gh_operator_insert_gateway_token('x', '{}', NULL, $1, 'p', NULL)", [
        randomBytes(32),
      ]),
    );
    expect(code).toBe('42501');
  });
});

describe('Database.withTenant (Prisma)', () => {
  it("shows only the tenant's rows through the models, and none without a tenant", async () => {
    const seen = await db.withTenant(a.tenantId, async (tx) => ({
      tenants: (await tx.tenant.findMany()).map((t) => t.id),
      workspaces: (await tx.workspace.findMany()).map((w) => w.id),
      tokens: (await tx.apiToken.findMany()).map((t) => t.id),
    }));
    expect(seen).toEqual({ tenants: [a.tenantId], workspaces: [a.workspaceId], tokens: [a.tokenId] });
    const none = await db.withoutTenant(async (tx) => ({
      tenants: await tx.tenant.count(),
      workspaces: await tx.workspace.count(),
      users: await tx.user.count(),
    }));
    expect(none).toEqual({ tenants: 0, workspaces: 0, users: 0 });
  });

  it('does not carry the tenant into the next unit of work on the same pooled connection', async () => {
    const single = createDatabase({ url: testDb.appUrl, poolMax: 1 });
    try {
      await single.withTenant(a.tenantId, (tx) => tx.workspace.count());
      expect(await single.withoutTenant((tx) => tx.workspace.count())).toBe(0);
      const raw = await single.withoutTenant(
        (tx) => tx.$queryRaw<{ t: string | null }[]>`SELECT current_setting('app.tenant_id', true) AS t`,
      );
      expect(raw[0]?.t ?? '').toBe('');
    } finally {
      await single.close();
    }
  });

  it('runs a lookup outside any transaction on a connection that just served a tenant, with no tenant set', async () => {
    const single = createDatabase({ url: testDb.appUrl, poolMax: 1 });
    type Context = { pid: number; tenant: string | null; user: string | null };
    // pg_backend_pid() proves the lookup ran on the very connection the unit of work had used.
    const contextOf = async (query: LookupQuery) =>
      (
        await query<Context>`SELECT pg_backend_pid() AS pid, current_setting('app.tenant_id', true) AS tenant,
                                    current_setting('app.user_id', true) AS "user"`
      )[0];
    try {
      const inside = await single.withTenantAndUser(a.tenantId, a.userId, (tx) =>
        contextOf(<R>(strings: TemplateStringsArray, ...values: unknown[]) =>
          tx.$queryRaw<R[]>(strings, ...values),
        ),
      );
      expect(inside).toMatchObject({ tenant: a.tenantId, user: a.userId });
      const after = await single.lookup(contextOf);
      expect(after?.pid).toBe(inside?.pid);
      expect(after?.tenant ?? '').toBe('');
      expect(after?.user ?? '').toBe('');

      // A unit of work that fails rolls back, and its tenant goes with it.
      await expect(
        single.withTenant(b.tenantId, async () => {
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      const afterFailure = await single.lookup(contextOf);
      expect(afterFailure?.pid).toBe(inside?.pid);
      expect(afterFailure?.tenant ?? '').toBe('');

      // A lookup is no way around row-level security: tables read directly show nothing.
      const counts = await single.lookup(
        (query) => query<{ n: number }>`SELECT count(*)::int AS n FROM workspaces`,
      );
      expect(counts[0]?.n).toBe(0);
    } finally {
      await single.close();
    }
  });

  it('refuses a tenant id that is not a uuid before touching the database', async () => {
    await expect(db.withTenant("' OR true --", (tx) => tx.tenant.count())).rejects.toThrow(
      'tenantId must be a uuid',
    );
  });

  it("rejects creating a row for B from A's context", async () => {
    await expect(
      db.withTenant(a.tenantId, (tx) =>
        tx.workspace.create({ data: { id: randomUUID(), tenantId: b.tenantId, name: 'x' } }),
      ),
    ).rejects.toThrow(/row-level security/);
  });
});
