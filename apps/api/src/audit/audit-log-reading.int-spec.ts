import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createDatabase, type Database } from '@gatehouse/db';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { mintApiToken } from '../auth/mint-api-token';
import { SignInUseCase } from '../auth/sign-in.use-case';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';
import { seedCrossTenantWorld, type CrossTenantWorld } from '../cross-tenant.fixtures';
import { appendAuditEvent } from './append-audit-event';

// Decision 0092 over the real API (Postgres, Redis, the built Nest app): the audit list's family filters and
// their validation, the streamed JSON lines and CSV export honoring the same filters, and failed dashboard
// sign-ins recorded without the password, bounded by the login throttle.

jest.setTimeout(120_000);

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let world: CrossTenantWorld;

interface Row {
  seq: number;
  action: string;
  targetType: string;
  outcome: string;
  actorId: string | null;
  data: Record<string, unknown>;
  label?: string;
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 2 });
  world = await seedCrossTenantWorld(db);
  // A few rows of every family the filters must tell apart, on top of what the seeding wrote.
  const rows: [string, string][] = [
    ['approvals.revoked', 'approval'],
    ['approvals.requests.opened', 'approval_request'],
    ['definitions.overlays.set', 'workspace'],
    ['definitions.variables.set', 'definition_variable'],
    ['approvalsx.fake', 'approval'],
    ['oauth.sign_in_started', 'oauth_credential'],
    ['oauth.signXin_started', 'oauth_credential'],
  ];
  for (const [action, type] of rows)
    await db.withTenant(world.a.tenantId, (tx) =>
      appendAuditEvent(tx, {
        actor: { type: 'user', id: world.a.owner.id, tokenKind: null },
        action,
        target: { type, id: null },
        outcome: 'success',
        data: { serverName: '=cmd|calc', reason: 'a "quoted" reason' },
      }),
    );
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'audit-log-reading', level: 'warn', destination: quiet }),
  });
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

const bearer = () => ({ authorization: `Bearer ${world.a.token.secret}` });

async function list(query: string): Promise<Row[]> {
  const response = await app.inject({
    method: 'GET',
    url: `/v1/audit-events?limit=200&${query}`,
    headers: bearer(),
  });
  expect(response.statusCode).toBe(200);
  return (JSON.parse(response.body) as { items: Row[] }).items;
}

describe('audit.list filters', () => {
  it('filters an action family at a dot boundary, wildcards taken literally', async () => {
    const approvals = await list('action=approvals');
    expect(approvals.length).toBeGreaterThanOrEqual(2);
    expect(approvals.every((r) => r.action === 'approvals' || r.action.startsWith('approvals.'))).toBe(true);
    expect(approvals.map((r) => r.action)).not.toContain('approvalsx.fake');
    expect((await list('action=approvals.revoked')).map((r) => r.action)).toEqual(['approvals.revoked']);
    // `_` is a LIKE wildcard: escaped, 'oauth.sign_in_started' does not reach 'oauth.signXin_started'.
    expect((await list('action=oauth.sign_in_started')).map((r) => r.action)).toEqual([
      'oauth.sign_in_started',
    ]);
  });

  it('filters by target kind (an overlay row targets its workspace), actor and time', async () => {
    expect((await list('targetKind=overlay')).map((r) => r.action)).toEqual(['definitions.overlays.set']);
    expect((await list('targetKind=variable')).map((r) => r.action)).toEqual(['definitions.variables.set']);
    const approvals = (await list('targetKind=approval')).map((r) => r.action);
    expect(approvals).toEqual(expect.arrayContaining(['approvals.revoked', 'approvals.requests.opened']));
    expect(approvals).not.toContain('approvalsx.fake');
    const mine = await list(`actorId=${world.a.owner.id}&targetKind=approval`);
    expect(mine.length).toBe(approvals.length);
    expect(await list(`actorId=someone-else&targetKind=approval`)).toEqual([]);
    expect(await list('from=2999-01-01T00:00:00Z')).toEqual([]);
    expect((await list('to=2000-01-01T00:00:00Z')).length).toBe(0);
  });

  it('pages a filtered list by keyset without gaps or repeats', async () => {
    const all = await list('targetKind=approval');
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `/v1/audit-events?limit=1&targetKind=approval${cursor ? `&cursor=${cursor}` : ''}`;
      const response = await app.inject({ method: 'GET', url, headers: bearer() });
      const page = JSON.parse(response.body) as { items: Row[]; nextCursor: string | null };
      seen.push(...page.items.map((r) => r.seq));
      cursor = page.nextCursor;
    } while (cursor !== null);
    expect(seen).toEqual(all.map((r) => r.seq));
  });

  it('refuses a malformed family or an unknown target kind as a 400 problem with field errors', async () => {
    for (const query of ['action=approvals%25', 'action=a..b', 'action=%20x', 'targetKind=everything']) {
      const response = await app.inject({
        method: 'GET',
        url: `/v1/audit-events?${query}`,
        headers: bearer(),
      });
      expect(response.statusCode).toBe(400);
      expect(response.headers['content-type']).toContain('application/problem+json');
      expect(JSON.parse(response.body)).toMatchObject({ code: 'validation_failed' });
    }
  });
});

describe('audit export', () => {
  it('streams the filtered log as JSON lines with labels', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/audit-events/export?format=jsonl&targetKind=approval',
      headers: bearer(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/x-ndjson');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="audit-.+\.jsonl"$/);
    expect(response.headers['cache-control']).toBe('no-store');
    const rows = response.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Row);
    expect(rows.map((r) => r.seq)).toEqual((await list('targetKind=approval')).map((r) => r.seq));
    expect(rows.find((r) => r.action === 'approvals.revoked')?.label).toBe('Revoked an approval');
  });

  it('streams CSV with formula-looking cells neutralized', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/v1/audit-events/export?format=csv&action=definitions.overlays',
      headers: bearer(),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.split('\r\n').filter((line) => line !== '');
    expect(lines[0]).toMatch(/^"seq","occurredAt",/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"definitions.overlays.set","Disabled a server","workspace"');
    // The tenant text sits inside the JSON data column, never at the start of a cell.
    expect(lines[1]?.split('","').some((cell) => /^[=+\-@]/.test(cell))).toBe(false);
  });

  it('answers a caller without audit:read, an anonymous one and bad filters with problems, not a file', async () => {
    const anonymous = await app.inject({ method: 'GET', url: '/v1/audit-events/export' });
    expect(anonymous.statusCode).toBe(401);
    const worker = await app.inject({
      method: 'GET',
      url: '/v1/audit-events/export',
      headers: { authorization: `Bearer ${world.a.worker.secret}` },
    });
    expect([403]).toContain(worker.statusCode);
    const bad = await app.inject({
      method: 'GET',
      url: '/v1/audit-events/export?format=xlsx',
      headers: bearer(),
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toMatchObject({ code: 'validation_failed' });
  });
});

describe('refused writes', () => {
  it('records a typed refusal once per window, folds the rest, and keeps the input out', async () => {
    const missing = randomUUID();
    const revoke = () => app.inject({ method: 'DELETE', url: `/v1/tokens/${missing}`, headers: bearer() });
    for (let i = 0; i < 3; i += 1) expect((await revoke()).statusCode).toBe(404);
    const refused = await list('action=commands.refused');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({
      outcome: 'denied',
      actorId: world.a.owner.id,
      targetType: 'command',
      data: { command: 'tokens.revoke', code: 'not_found', status: 404, foldedBefore: 0 },
    });
    expect(JSON.stringify(refused)).not.toContain(missing);

    // The window's end, without waiting for it: its key expiring is what ends it.
    const key = `gatehouse:audit-refusal:${world.a.tenantId}:${world.a.owner.id}:tokens.revoke:not_found`;
    const redis = new Redis(testRedisUrl());
    try {
      expect(await redis.get(`${key}:folded`)).toBe('2');
      await redis.del(`${key}:window`);
    } finally {
      redis.disconnect();
    }
    expect((await revoke()).statusCode).toBe(404);
    const after = await list('targetKind=refusal');
    expect(after).toHaveLength(2);
    expect(after[0]?.data).toMatchObject({ foldedBefore: 2 });
  });

  describe("refused before the use case runs (the runner's checks)", () => {
    // The tenant's member (the fixture's maintainer) with a read-only token: every write is a 403 for it.
    let memberSecret: string;
    beforeAll(async () => {
      memberSecret = (
        await db.withTenant(world.a.tenantId, (tx) =>
          mintApiToken(tx, {
            tenantId: world.a.tenantId,
            createdById: world.a.owner.id,
            name: `member-read-only-${randomUUID().slice(0, 8)}`,
            grant: {
              kind: 'user',
              userId: world.a.maintainer.id,
              scopes: ['workspaces:read', 'tokens:read'],
              workspaceIds: [],
              pool: null,
            },
            expiresAt: null,
          }),
        )
      ).secret;
    });
    const asMember = () => ({ authorization: `Bearer ${memberSecret}` });
    const refusalsOf = async (command: string) =>
      (await list('action=commands.refused')).filter((row) => row.data.command === command);
    const graphql = (query: string, headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify({ query }),
      });

    it("records a member's 403 on a write, once, with who and which scope's refusal", async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/v1/workspaces',
        headers: asMember(),
        payload: { name: 'never-created' },
      });
      expect(created.statusCode).toBe(403);
      const rows = await refusalsOf('workspaces.create');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        outcome: 'denied',
        actorId: world.a.maintainer.id,
        targetType: 'command',
        data: { command: 'workspaces.create', code: 'forbidden_scope', status: 403, foldedBefore: 0 },
      });
      expect(JSON.stringify(rows)).not.toContain('never-created');
      expect(JSON.stringify(rows)).not.toContain(memberSecret);
    });

    it('records a 400 on a write without its input; ten in a row fold into one row', async () => {
      const rename = () =>
        app.inject({
          method: 'PATCH',
          url: `/v1/workspaces/${world.a.workspace.id}`,
          headers: bearer(),
          payload: { name: '', secretish: 'input-marker-xyz' },
        });
      for (let i = 0; i < 10; i += 1) expect((await rename()).statusCode).toBe(400);
      const rows = await refusalsOf('workspaces.rename');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        actorId: world.a.owner.id,
        data: { code: 'validation_failed', status: 400, foldedBefore: 0 },
      });
      expect(JSON.stringify(rows)).not.toContain('input-marker-xyz');

      const key = `gatehouse:audit-refusal:${world.a.tenantId}:${world.a.owner.id}:workspaces.rename:validation_failed`;
      const redis = new Redis(testRedisUrl());
      try {
        expect(await redis.get(`${key}:folded`)).toBe('9');
        await redis.del(`${key}:window`);
      } finally {
        redis.disconnect();
      }
      expect((await rename()).statusCode).toBe(400);
      const after = await refusalsOf('workspaces.rename');
      expect(after).toHaveLength(2);
      expect(after[0]?.data).toMatchObject({ foldedBefore: 9 });
    });

    it('records nothing for a refused read (REST or GraphQL)', async () => {
      const before = (await list('action=commands.refused')).length;
      expect(
        (await app.inject({ method: 'GET', url: '/v1/workspaces/not-a-uuid', headers: bearer() })).statusCode,
      ).toBe(400);
      expect(
        (await app.inject({ method: 'GET', url: '/v1/audit-events', headers: asMember() })).statusCode,
      ).toBe(403);
      expect((await graphql('{ auditEvents { items { seq } } }', asMember())).body).toContain(
        'forbidden_scope',
      );
      expect(await list('action=commands.refused')).toHaveLength(before);
    });

    it('records GraphQL refusals the same as REST', async () => {
      const forbidden = await graphql(
        `mutation { bumpWorkspaceGeneration(input: { workspaceId: "${world.a.workspace.id}" }) { id } }`,
        asMember(),
      );
      expect(forbidden.body).toContain('forbidden_scope');
      const invalid = await graphql(
        `
          mutation {
            setWorkspaceTrust(input: { workspaceId: "not-a-uuid", trusted: true }) {
              id
            }
          }
        `,
        bearer(),
      );
      expect(invalid.body).toContain('validation_failed');
      const bumped = await refusalsOf('workspaces.bumpGeneration');
      expect(bumped).toHaveLength(1);
      expect(bumped[0]).toMatchObject({
        actorId: world.a.maintainer.id,
        data: { code: 'forbidden_scope', status: 403 },
      });
      const trust = await refusalsOf('workspaces.setTrust');
      expect(trust).toHaveLength(1);
      expect(trust[0]).toMatchObject({ actorId: world.a.owner.id, data: { code: 'validation_failed' } });
    });
  });

  it('records nothing for an anonymous caller', async () => {
    const before = (await list('action=commands.refused')).length;
    const anonymous = await app.inject({ method: 'DELETE', url: `/v1/tokens/${randomUUID()}` });
    expect(anonymous.statusCode).toBe(401);
    expect(await list('action=commands.refused')).toHaveLength(before);
  });
});

describe('failed dashboard sign-ins', () => {
  it('are recorded in the account’s tenant, without the password, and stop at the throttle', async () => {
    const password = `wrong-${'x'.repeat(12)}`;
    const attempt = () =>
      app.inject({
        method: 'POST',
        url: '/v1/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: world.a.owner.email, password, tenant: world.a.slug }),
      });
    const statuses: number[] = [];
    // The per-address-and-account budget is 5: the sixth and seventh are refused before the password is checked.
    for (let i = 0; i < 7; i += 1) statuses.push((await attempt()).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    await app.get(SignInUseCase).drain();
    const failed = await list('action=auth.login_failed');
    expect(failed).toHaveLength(5);
    expect(failed[0]).toMatchObject({ outcome: 'denied', actorId: world.a.owner.id, targetType: 'user' });
    expect(failed[0]?.data).toEqual({ ip: expect.any(String), reason: 'wrong_password' });
    expect(JSON.stringify(failed)).not.toContain(password);
    expect(JSON.stringify(failed)).not.toContain(world.a.owner.email);
    // B's log has none of A's account's failures.
    expect(JSON.stringify(failed)).not.toContain(world.b.tenantId);
  });
});
