import { Client } from 'pg';
import { PROBE_READ, createIdentityHarness, type IdentityHarness } from '../auth/testing/identity-harness';
import { runCli } from './run-cli';
import type { CliIo } from './cli-io';

// The operator CLI run in-process (its main function, with captured stdout/stderr) against a real migrated
// database; what it creates is then used through the real HTTP stack.

jest.setTimeout(60_000);

let h: IdentityHarness;

interface Run {
  code: number;
  out: string[];
  /** stderr without the audit checkpoint log lines (those are in `checkpoints`). */
  err: string[];
  checkpoints: Record<string, unknown>[];
}

async function cli(
  argv: string[],
  options: { env?: Record<string, string>; stdin?: string; owner?: boolean } = {},
): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    env: {
      DATABASE_URL: h.testDb.appUrl,
      ...(options.owner ? { MIGRATION_DATABASE_URL: h.testDb.ownerUrl } : {}),
      ...options.env,
    },
    readStdin: async () => options.stdin ?? '',
  };
  const code = await runCli(argv, io);
  const checkpoints = err
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.event === 'audit.checkpoint');
  return { code, out, err: err.filter((line) => !line.includes('"audit.checkpoint"')), checkpoints };
}

function json<T = Record<string, unknown>>(run: Run): T {
  expect(run.out).toHaveLength(1);
  return JSON.parse(run.out[0] as string) as T;
}

function login(email: string, password: string) {
  return h.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
}

function whoIs(secret: string) {
  return h.app.inject({ method: 'GET', url: PROBE_READ, headers: { authorization: `Bearer ${secret}` } });
}

/** A token's stored expiry, read as the superuser (gateway tokens are invisible to the app role). */
async function storedExpiry(tokenId: string): Promise<string | null> {
  const client = new Client({ connectionString: h.testDb.adminUrl });
  await client.connect();
  try {
    const result = await client.query<{ expires_at: Date | null }>(
      'SELECT expires_at FROM api_tokens WHERE id = $1',
      [tokenId],
    );
    return result.rows[0]?.expires_at?.toISOString() ?? null;
  } finally {
    await client.end();
  }
}

async function operatorEvents(tenantId: string) {
  return h.db.withTenant(tenantId, (tx) =>
    tx.auditEvent.findMany({ where: { actorType: 'operator' }, orderBy: { seq: 'asc' } }),
  );
}

beforeAll(async () => {
  h = await createIdentityHarness();
});

afterAll(async () => {
  await h.close();
});

describe('gatehouse admin: tenant, user and token round trip', () => {
  let tenantId: string;

  it('creates a tenant, audited as the operator', async () => {
    const run = await cli(['admin', 'create-tenant', '--slug', 'acme', '--name', 'Acme Corp', '--json']);
    expect(run).toMatchObject({ code: 0, err: [] });
    const tenant = json<{ tenantId: string; slug: string; name: string }>(run);
    expect(tenant).toMatchObject({ slug: 'acme', name: 'Acme Corp' });
    tenantId = tenant.tenantId;
    const events = await operatorEvents(tenantId);
    expect(events.map((e) => [e.action, e.actorId])).toEqual([['tenant.create', 'cli']]);
    // The committed head goes to stderr as a checkpoint line, as the API logs its own.
    expect(run.checkpoints).toEqual([
      expect.objectContaining({
        tenantId,
        seq: '1',
        hash: Buffer.from(events[0]!.hash).toString('hex'),
      }),
    ]);

    const again = await cli(['admin', 'create-tenant', '--slug', 'acme', '--name', 'Other']);
    expect(again.code).toBe(1);
    expect(again.err).toEqual(['gatehouse: a tenant with slug acme already exists']);
    expect(again.checkpoints).toEqual([]);
  });

  it('creates an owner from a password in an env variable, never echoing it; that login then works', async () => {
    const password = 'operator-chosen passphrase';
    const run = await cli(
      [
        'admin',
        'create-user',
        '--email',
        'Olga@Example.test',
        '--name',
        'Olga',
        '--password-env',
        'GH_PW',
        '--tenant',
        'acme',
        '--role',
        'owner',
        '--json',
      ],
      { env: { GH_PW: password } },
    );
    expect(run.code).toBe(0);
    expect(run.out.join('\n')).not.toContain(password);
    expect(json(run)).toMatchObject({ email: 'olga@example.test', tenant: 'acme', role: 'owner' });
    expect((await login('olga@example.test', password)).statusCode).toBe(200);
    expect((await operatorEvents(tenantId)).map((e) => e.action)).toEqual(['tenant.create', 'members.add']);
  });

  it('prints a generated password once when none is given, and reads one from stdin', async () => {
    const generated = await cli([
      'admin',
      'create-user',
      '--email',
      'gen@example.test',
      '--name',
      'Gen',
      '--tenant',
      'acme',
      '--role',
      'member',
    ]);
    expect(generated.code).toBe(0);
    const line = generated.out.find((l) => l.startsWith('password: '));
    const password = line?.slice('password: '.length) ?? '';
    expect(password).toMatch(/^[0-9A-Za-z]{24}$/);
    expect((await login('gen@example.test', password)).statusCode).toBe(200);

    const fromStdin = await cli(
      [
        'admin',
        'create-user',
        '--email',
        'stdin@example.test',
        '--name',
        'In',
        '--password-stdin',
        '--tenant',
        'acme',
        '--role',
        'approver',
      ],
      {
        stdin: 'piped in passphrase\n',
      },
    );
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.out.join('\n')).not.toContain('piped in passphrase');
    expect((await login('stdin@example.test', 'piped in passphrase')).statusCode).toBe(200);
  });

  it('refuses a password in argv without echoing it, and a short password', async () => {
    const inArgv = await cli([
      'admin',
      'create-user',
      '--email',
      'x@example.test',
      '--name',
      'X',
      '--password=hunter2hunter2',
    ]);
    expect(inArgv.code).toBe(2);
    expect(inArgv.err.join('\n')).not.toContain('hunter2');
    expect(inArgv.err[0]).toContain('--password-stdin');

    const short = await cli(
      ['admin', 'create-user', '--email', 'y@example.test', '--name', 'Y', '--password-env', 'PW'],
      { env: { PW: 'too short' } },
    );
    expect(short.code).toBe(1);
    expect(short.err).toEqual(['gatehouse: the password is too short (at least 12 characters)']);
  });

  it('mints a user token for a member within their role, usable at once and audited', async () => {
    const run = await cli([
      'admin',
      'create-token',
      '--kind',
      'user',
      '--name',
      'olga cli',
      '--tenant',
      'acme',
      '--user',
      'olga@example.test',
      '--scopes',
      'tenant:read,members:write',
      '--expires-days',
      '30',
      '--json',
    ]);
    expect(run.code).toBe(0);
    const token = json<{ tokenId: string; secret: string; prefix: string; kind: string }>(run);
    expect(token.secret).toMatch(/^ghu_/);
    expect(token.prefix).toBe(token.secret.slice(0, 10));
    expect((await whoIs(token.secret)).json().principal).toMatchObject({
      via: 'user',
      tenantSlug: 'acme',
      role: 'owner',
      tokenId: token.tokenId,
      scopes: ['tenant:read', 'members:write'],
    });
    const events = await operatorEvents(tenantId);
    const created = events.find((e) => e.action === 'tokens.create');
    expect(created).toMatchObject({ targetId: token.tokenId, tokenKind: null });
    expect(JSON.stringify(created?.data)).not.toContain(token.secret);

    const beyondRole = await cli([
      'admin',
      'create-token',
      '--kind',
      'user',
      '--name',
      'gen',
      '--tenant',
      'acme',
      '--user',
      'gen@example.test',
      '--scopes',
      'members:write',
    ]);
    expect(beyondRole.code).toBe(1);
    expect(beyondRole.err[0]).toContain('members:write');
  });

  it('refuses approvals:decide on an agent token and a worker pool not open to the tenant', async () => {
    const agent = await cli([
      'admin',
      'create-token',
      '--kind',
      'agent',
      '--name',
      'a',
      '--tenant',
      'acme',
      '--scopes',
      'approvals:decide',
    ]);
    expect(agent).toMatchObject({
      code: 1,
      err: ['gatehouse: this token kind may never hold the scope approvals:decide'],
    });

    const worker = await cli(
      [
        'admin',
        'create-token',
        '--kind',
        'worker',
        '--name',
        'w',
        '--tenant',
        'acme',
        '--scopes',
        'leases:write',
        '--pool',
        'eu',
      ],
      {
        env: { WORKER_POOLS: '{"eu":{"tenants":["globex"]},"default":{"tenants":"*"}}' },
      },
    );
    expect(worker).toMatchObject({
      code: 1,
      err: ['gatehouse: the pool eu is not open to tenant acme (WORKER_POOLS)'],
    });

    const open = await cli([
      'admin',
      'create-token',
      '--kind',
      'worker',
      '--name',
      'w',
      '--tenant',
      'acme',
      '--scopes',
      'leases:write',
      '--pool',
      'default',
      '--json',
    ]);
    expect(open.code).toBe(0);
    expect((await whoIs(json<{ secret: string }>(open).secret)).json().principal).toMatchObject({
      via: 'worker',
      pool: 'default',
    });
  });

  it('creates gateway tokens only through the owner connection', async () => {
    const withoutOwner = await cli([
      'admin',
      'create-token',
      '--kind',
      'gateway',
      '--name',
      'gw',
      '--scopes',
      'tokens:introspect',
    ]);
    expect(withoutOwner.code).toBe(2);
    expect(withoutOwner.err[0]).toContain('MIGRATION_DATABASE_URL');

    const withTenant = await cli(
      [
        'admin',
        'create-token',
        '--kind',
        'gateway',
        '--name',
        'gw',
        '--tenant',
        'acme',
        '--scopes',
        'tokens:introspect',
      ],
      { owner: true },
    );
    expect(withTenant.code).toBe(2);

    const run = await cli(
      [
        'admin',
        'create-token',
        '--kind',
        'gateway',
        '--name',
        'gw',
        '--scopes',
        'tokens:introspect,leases:write',
        '--json',
      ],
      { owner: true },
    );
    expect(run.code).toBe(0);
    const token = json<{ tokenId: string; secret: string; tenant: string | null }>(run);
    expect(token.tenant).toBeNull();
    expect((await whoIs(token.secret)).json().principal).toEqual({
      type: 'platform',
      via: 'gateway',
      tokenId: token.tokenId,
      scopes: ['tokens:introspect', 'leases:write'],
    });
  });

  it('gives a gateway token a 90-day expiry unless --expires-days is given, and prints it', async () => {
    const run = await cli(
      [
        'admin',
        'create-token',
        '--kind',
        'gateway',
        '--name',
        'gw',
        '--scopes',
        'tokens:introspect',
        '--json',
      ],
      { owner: true },
    );
    expect(run.code).toBe(0);
    const token = json<{ tokenId: string; expiresAt: string | null }>(run);
    expect(token.expiresAt).not.toBeNull();
    const days = (Date.parse(token.expiresAt as string) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89);
    expect(days).toBeLessThanOrEqual(90);
    expect(await storedExpiry(token.tokenId)).toBe(token.expiresAt);

    const explicit = await cli(
      [
        'admin',
        'create-token',
        '--kind',
        'gateway',
        '--name',
        'gw',
        '--scopes',
        'tokens:introspect',
        '--expires-days',
        '7',
        '--json',
      ],
      { owner: true },
    );
    const short = json<{ expiresAt: string }>(explicit);
    expect((Date.parse(short.expiresAt) - Date.now()) / 86_400_000).toBeLessThanOrEqual(7);
  });

  it('revokes a gateway token through the owner connection: it stops authenticating at once', async () => {
    const created = await cli(
      [
        'admin',
        'create-token',
        '--kind',
        'gateway',
        '--name',
        'gw',
        '--scopes',
        'tokens:introspect',
        '--json',
      ],
      { owner: true },
    );
    const token = json<{ tokenId: string; secret: string }>(created);
    expect((await whoIs(token.secret)).json().principal).toMatchObject({ tokenId: token.tokenId });

    const withoutOwner = await cli(['admin', 'revoke-token', '--id', token.tokenId]);
    expect(withoutOwner.code).toBe(2);
    expect(withoutOwner.err[0]).toContain('MIGRATION_DATABASE_URL');
    expect((await whoIs(token.secret)).json().principal).toMatchObject({ tokenId: token.tokenId });

    const run = await cli(['admin', 'revoke-token', '--id', token.tokenId, '--json'], { owner: true });
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(json(run)).toEqual({ tokenId: token.tokenId, tenant: null, kind: 'gateway', status: 'revoked' });
    // The probe answers an anonymous caller (no valid credential) with principal null.
    expect((await whoIs(token.secret)).json().principal).toBeNull();

    const again = await cli(['admin', 'revoke-token', '--id', token.tokenId], { owner: true });
    expect(again.code).toBe(1);
    expect(again.err[0]).toContain('no live gateway token');
    expect((await cli(['admin', 'revoke-token', '--id', 'not-a-uuid'], { owner: true })).code).toBe(2);
  });

  it("revokes a tenant's token with --tenant, audited as the operator", async () => {
    const created = await cli([
      'admin',
      'create-token',
      '--kind',
      'worker',
      '--name',
      'w',
      '--tenant',
      'acme',
      '--scopes',
      'leases:write',
      '--pool',
      'default',
      '--json',
    ]);
    const token = json<{ tokenId: string; secret: string }>(created);
    expect((await whoIs(token.secret)).json().principal).toMatchObject({ tokenId: token.tokenId });

    // A tenant token is not a gateway token: without --tenant nothing is revoked.
    expect((await cli(['admin', 'revoke-token', '--id', token.tokenId], { owner: true })).code).toBe(1);
    expect((await whoIs(token.secret)).json().principal).toMatchObject({ tokenId: token.tokenId });

    const run = await cli(['admin', 'revoke-token', '--id', token.tokenId, '--tenant', 'acme', '--json']);
    expect(run).toMatchObject({ code: 0, err: [] });
    expect(json(run)).toEqual({ tokenId: token.tokenId, tenant: 'acme', kind: 'worker', status: 'revoked' });
    // The probe answers an anonymous caller (no valid credential) with principal null.
    expect((await whoIs(token.secret)).json().principal).toBeNull();
    const events = await operatorEvents(tenantId);
    const revoked = events.filter((e) => e.action === 'tokens.revoke');
    expect(revoked).toEqual([
      expect.objectContaining({
        targetId: token.tokenId,
        data: expect.objectContaining({ alreadyRevoked: false }),
      }),
    ]);
    expect(run.checkpoints).toEqual([expect.objectContaining({ tenantId, seq: revoked[0]!.seq.toString() })]);

    const unknown = await cli([
      'admin',
      'revoke-token',
      '--id',
      '00000000-0000-4000-8000-000000000000',
      '--tenant',
      'acme',
    ]);
    expect(unknown).toMatchObject({
      code: 1,
      err: ['gatehouse: no token 00000000-0000-4000-8000-000000000000 in tenant acme'],
    });
  });
});

describe('gatehouse usage and configuration errors', () => {
  it('exits 2 with one line for a missing DATABASE_URL, an unknown command or option', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io: CliIo = {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      env: {},
      readStdin: async () => '',
    };
    expect(await runCli(['admin', 'create-tenant', '--slug', 'x', '--name', 'X'], io)).toBe(2);
    expect(err).toEqual([
      "gatehouse: DATABASE_URL is not set (the app role's Postgres URL; after npm start: gatehouse_app with " +
        'the appPassword of .gatehouse/local-secrets.json, see README, Operations)',
    ]);

    expect((await cli(['admin', 'drop-everything'])).code).toBe(2);
    // Names on Object.prototype are not commands.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const run = await cli(['admin', name]);
      expect(run).toMatchObject({ code: 2, out: [] });
      expect(run.err[0]).toContain('unknown command');
    }
    const unknownOption = await cli(['admin', 'create-tenant', '--slug', 'x', '--name', 'X', '--force']);
    expect(unknownOption).toMatchObject({ code: 2, err: ['gatehouse: unknown option --force'] });
    const badConfig = await cli(['admin', 'create-tenant', '--slug', 'x', '--name', 'X'], {
      env: { DATABASE_URL: 'mysql://nope' },
    });
    expect(badConfig.code).toBe(2);
    expect(badConfig.err[0]).toContain('DATABASE_URL');
    expect(badConfig.err[0]).not.toContain('mysql://nope');
  });

  it('prints usage for --help', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.out.join('\n')).toContain('gatehouse admin create-token');
    expect(run.out.join('\n')).toContain('gatehouse admin revoke-token --id TOKEN_ID');
  });

  it('prints one command’s usage for admin <command> --help (and -h), touching no database', async () => {
    for (const flag of ['--help', '-h']) {
      const run = await cli(['admin', 'create-token', flag], {
        env: { DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/x' },
      });
      expect(run).toMatchObject({ code: 0, err: [] });
      expect(run.out).toEqual([expect.stringMatching(/^usage: gatehouse admin create-token --kind /)]);
    }
    const revoke = await cli(['admin', 'revoke-token', '--id', 'x', '--help']);
    expect(revoke.code).toBe(0);
    expect(revoke.out[0]).toMatch(/^usage: gatehouse admin revoke-token --id TOKEN_ID/);
  });
});
