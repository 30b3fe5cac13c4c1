import { randomBytes, randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { createDatabase, type Database } from '@gatehouse/db';
import { createFixedResolver } from '@gatehouse/egress';
import { createLogger, parseConfig } from '@gatehouse/platform';
import {
  createTestDatabase,
  createTestTenant,
  createTestWorkspace,
  testRedisUrl,
  TEST_DATABASE_TIMEOUT_MS,
  type TestDatabase,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createMember, mintTestToken } from '../commands/testing/surfaces-harness';
import { apiConfigSchema } from '../config/api.config';
import { createApiApp } from '../create-api-app';

// `admission.check` through the real API (createApiApp: REST + GraphQL, real Postgres and Redis), with the
// operator's WORKER_POOLS, the tenant's HostPolicy written through the API, a fixed DNS table and the operator's
// log captured. What it proves: the tenant sees one destination class whatever the cause while the operator's
// log names it (origin only), stdio authority follows HostPolicy ∩ ceiling per pool, activation follows the
// approval workflow, and no secret of a definition comes back out anywhere.

jest.setTimeout(120_000);

const CANARY = `cnryhdr${randomBytes(9).toString('hex')}`;
const PATH_CANARY = `cnrypath${randomBytes(9).toString('hex')}`;
const EVERYTHING = ['npx', '-y', '@modelcontextprotocol/server-everything'];
const HELPER = ['/opt/helpers/token'];

const DNS = {
  'mcp.public.example': ['93.184.216.34'],
  'internal.example': ['10.2.3.4'],
  'opted.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.35', '10.2.3.5'],
  'api.corp.internal': ['10.9.1.1'],
};

/** One managed source (tenant-wide, so in every workspace's view): one server per case. */
function document() {
  const http = (url: string) => ({
    type: 'http',
    url,
    headers: { Authorization: `Bearer ${CANARY}` },
  });
  return {
    mcpServers: {
      public: http(`https://mcp.public.example/mcp/${PATH_CANARY}?session=${PATH_CANARY}`),
      metadata: http(`https://169.254.169.254/latest/meta-data/${PATH_CANARY}`),
      private: http(`https://internal.example/mcp/${PATH_CANARY}`),
      opted: http(`https://opted.example/mcp/${PATH_CANARY}`),
      mixed: http(`https://mixed.example/mcp/${PATH_CANARY}`),
      nowhere: http(`https://nowhere.example/mcp/${PATH_CANARY}`),
      operator: http(`https://api.corp.internal/mcp/${PATH_CANARY}`),
      // Header helpers: only `local` allows them, and only the argv the tenant chose within its ceiling.
      helped: { ...http('https://mcp.public.example/mcp'), headersHelper: [...HELPER, '--audience', 'mcp'] },
      unhelped: { ...http('https://mcp.public.example/mcp'), headersHelper: ['/opt/helpers/other'] },
      everything: {
        type: 'stdio',
        command: EVERYTHING[0],
        args: EVERYTHING.slice(1),
        env: { API_KEY: CANARY },
      },
      rooted: {
        type: 'stdio',
        command: EVERYTHING[0],
        args: [...EVERYTHING.slice(1), 'stdio'],
        cwd: '/srv/mcp/acme',
      },
      escaping: {
        type: 'stdio',
        command: EVERYTHING[0],
        args: EVERYTHING.slice(1),
        // Outside the root /srv/mcp though it shares its prefix (a lexical `..` is refused earlier, at decode).
        cwd: '/srv/mcp-other/etc',
      },
      // The pool's ceiling allows /usr/bin/node, but the tenant never chose it: the intersection refuses it.
      notes: {
        type: 'stdio',
        command: '/usr/bin/node',
        args: ['/opt/notes/index.js'],
        env: { NOTES_TOKEN: CANARY },
      },
      dotted: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', './node_modules/../@modelcontextprotocol/server-everything'],
      },
    },
  };
}

let testDb: TestDatabase;
let db: Database;
let app: NestFastifyApplication;
let acme: TestTenant;
let globex: TestTenant;
let workspaceId: string;
let member: TestUser;
let globexUser: TestUser;
const logLines: string[] = [];
const bodies: string[] = [];
/** The admission-check answers alone (other responses, such as a source's projection, show URL paths). */
const checkBodies: string[] = [];
const tokens = { owner: '', admin: '', approver: '', member: '', globexOwner: '' };
type Who = keyof typeof tokens;

async function rest(who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const response = await app.inject({
    method,
    url,
    headers: {
      authorization: `Bearer ${tokens[who]}`,
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
  bodies.push(response.body);
  return {
    status: response.statusCode,
    body: JSON.parse(response.body || 'null') as Record<string, unknown>,
  };
}

type Check = {
  found: boolean;
  transport: string | null;
  fingerprint: string | null;
  principalUserId: string | null;
  activation: { state: string; reasons: string[]; approvalId: string | null } | null;
  destination: { result: string };
  stdio: { pool: string; result: string; reason: string | null }[];
  headerHelper: { pool: string; result: string; reason: string | null }[];
  admissible: boolean;
};

async function check(serverName: string, extra: Record<string, string> = {}, who: Who = 'admin') {
  const query = new URLSearchParams({ serverName, ...extra });
  const response = await rest(who, 'GET', `/v1/workspaces/${workspaceId}/admission-check?${query}`);
  checkBodies.push(JSON.stringify(response.body));
  return {
    status: response.status,
    body: response.body as unknown as Check,
    raw: JSON.stringify(response.body),
  };
}

type Refusal = {
  event: string;
  tenantId: string;
  workspaceId: string;
  serverName: string;
  pool: string | null;
  reason: string;
  origin: string | null;
};

/** The operator's lines about one server, from the captured log (from chunk `since` on). */
function refusalsLogged(serverName: string, since = 0): Refusal[] {
  return logLines
    .slice(since)
    .flatMap((chunk) => chunk.split('\n'))
    .filter((line) => line.includes('admission.destination_refused'))
    .map((line) => JSON.parse(line) as Refusal)
    .filter((line) => line.serverName === serverName);
}

beforeAll(async () => {
  testDb = await createTestDatabase();
  db = createDatabase({ url: testDb.appUrl, poolMax: 3 });
  acme = await createTestTenant(db, { slug: `acme-${randomUUID().slice(0, 8)}` });
  globex = await createTestTenant(db, { slug: `globex-${randomUUID().slice(0, 8)}` });
  const owner = await createMember(db, acme, 'owner');
  const admin = await createMember(db, acme, 'admin');
  const approver = await createMember(db, acme, 'approver');
  member = await createMember(db, acme, 'member');
  globexUser = await createMember(db, globex, 'owner');
  workspaceId = (await createTestWorkspace(db, acme.id)).id;
  for (const [who, tenant, user] of [
    ['owner', acme, owner],
    ['admin', acme, admin],
    ['approver', acme, approver],
    ['member', acme, member],
    ['globexOwner', globex, globexUser],
  ] as const) {
    tokens[who] = (await mintTestToken(db, tenant, user, { kind: 'user' })).secret;
  }
  const workerPools = {
    // Open to every tenant, nothing local, no private range: the narrowest pool.
    edge: { tenants: '*' },
    // Acme's own pool: stdio under a command ceiling and roots, 10/8 open to opt into, 10.9/16 is the operator's.
    local: {
      tenants: [acme.slug],
      stdio: true,
      headerHelpers: true,
      commandCeiling: [EVERYTHING, ['/usr/bin/node'], HELPER, ['/opt/helpers/other']],
      allowedRoots: ['/srv/mcp'],
      childEnvKeys: ['API_KEY', 'NOTES_TOKEN'],
      egressDenylist: ['10.9.0.0/16', '*.corp.internal'],
      privateRangesTenantsMayOptInto: ['10.0.0.0/8'],
    },
  };
  const parsed = parseConfig(apiConfigSchema, {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: testDb.appUrl,
    REDIS_URL: testRedisUrl(),
    GATEHOUSE_KEYS: `k1:${randomBytes(32).toString('base64')}`,
    GATEHOUSE_ACTIVE_KEY_ID: 'k1',
    WORKER_POOLS: JSON.stringify(workerPools),
  });
  if (!parsed.ok) throw new Error(parsed.message);
  const buffer = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      logLines.push(chunk.toString('utf8'));
      done();
    },
  });
  app = await createApiApp(parsed.config, {
    logger: createLogger({ name: 'admission-test', level: 'info', destination: buffer }),
    egressResolver: createFixedResolver(DNS),
  });

  const policy = await rest('admin', 'PUT', '/v1/host-policy', {
    stdioCommands: [EVERYTHING],
    headerHelpers: [HELPER],
    privateCidrs: ['10.1.0.0/16'],
    traceContextOrigins: [],
    fourEyes: false,
  });
  if (policy.status !== 200) throw new Error(`host policy refused: ${JSON.stringify(policy.body)}`);
  const source = await rest('admin', 'PUT', '/v1/definition-sources', {
    tier: 'managed',
    name: 'admission',
    document: document(),
  });
  if (source.status !== 200) throw new Error(`source refused: ${JSON.stringify(source.body)}`);
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await app?.close();
  await db?.close();
  await testDb?.drop();
}, TEST_DATABASE_TIMEOUT_MS);

/** Asks for review of a server in the workspace view and approves what the request shows (an approver). */
async function approve(serverName: string): Promise<string> {
  const opened = await rest('admin', 'POST', `/v1/workspaces/${workspaceId}/approval-requests`, {
    serverName,
    view: 'workspace',
  });
  expect(opened.status).toBe(201);
  const identity = opened.body.identity as { key: string; definitionFingerprint: string };
  const decided = await rest(
    'approver',
    'POST',
    `/v1/approval-requests/${opened.body.id as string}/decision`,
    {
      decision: 'approve',
      seenFingerprint: identity.definitionFingerprint,
      seenIdentityKey: identity.key,
    },
  );
  expect(decided.status).toBe(201);
  return decided.body.id as string;
}

describe('admission.check', () => {
  it('is for owners and admins only', async () => {
    for (const who of ['member', 'approver'] as const) {
      const refused = await check('public', {}, who);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ code: 'forbidden_scope' });
    }
    expect((await check('public', {}, 'owner')).status).toBe(200);
  });

  it('answers found: false for a server the view does not list, with nothing judged', async () => {
    const { status, body } = await check('no-such-server');
    expect(status).toBe(200);
    expect(body).toEqual({
      workspaceId,
      serverName: 'no-such-server',
      principalUserId: null,
      found: false,
      transport: null,
      fingerprint: null,
      activation: null,
      destination: { result: 'not_applicable' },
      stdio: [],
      headerHelper: [],
      admissible: false,
    });
  });

  it('admits a public https destination on every pool; pending before approval, admissible after one', async () => {
    const before = await check('public');
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      found: true,
      transport: 'http',
      activation: { state: 'pending', reasons: ['no_admission_decision'], approvalId: null },
      destination: { result: 'admitted' },
      stdio: [],
      admissible: false,
    });
    expect(before.body.fingerprint).toMatch(/\S{16,}/);
    expect(refusalsLogged('public')).toEqual([]);

    const approvalId = await approve('public');
    const after = await check('public');
    expect(after.body).toMatchObject({
      activation: { state: 'approved', approvalId },
      destination: { result: 'admitted' },
      admissible: true,
    });
  });

  it('reads only: checking, for the workspace or for a member, opens no approval request', async () => {
    const openIds = async () => {
      const open = await rest('admin', 'GET', `/v1/approval-requests?workspaceId=${workspaceId}&limit=100`);
      expect(open.status).toBe(200);
      return (open.body.items as { id: string }[]).map((request) => request.id).sort();
    };
    const before = await openIds();
    for (const serverName of ['nowhere', 'rooted', 'escaping', 'dotted']) {
      expect((await check(serverName)).body.activation?.state).toBe('pending');
      expect((await check(serverName, { principalUserId: member.id })).status).toBe(200);
    }
    expect(await openIds()).toEqual(before);
  });

  it.each([
    ['metadata', 'metadata_destination', 'https://169.254.169.254:443'],
    ['private', 'private_destination', 'https://internal.example:443'],
    ['mixed', 'private_destination', 'https://mixed.example:443'],
    ['nowhere', 'unresolvable', 'https://nowhere.example:443'],
  ])(
    'shows the tenant only destination_refused for %s; the operator log names %s and the origin',
    async (serverName, reason, origin) => {
      const since = logLines.length;
      const { status, body, raw } = await check(serverName);
      expect(status).toBe(200);
      expect(body).toMatchObject({
        found: true,
        transport: 'http',
        destination: { result: 'destination_refused' },
      });
      expect(body.admissible).toBe(false);
      expect(raw).not.toContain(reason);
      expect(raw).not.toMatch(
        /_destination|unresolvable|operator_denied|internal\.example|10\.2\.3|169\.254/,
      );

      const logged = refusalsLogged(serverName, since);
      expect(logged.map((line) => line.pool).sort()).toEqual(['edge', 'local']);
      for (const line of logged) {
        expect(line).toMatchObject({ tenantId: acme.id, workspaceId, serverName, reason, origin });
      }
      // Origin only: never the path, the query or the addresses the name resolved to.
      const text = JSON.stringify(logged);
      expect(text).not.toContain('/mcp');
      expect(text).not.toContain('meta-data');
      expect(text).not.toMatch(/10\.2\.3\.[45]|93\.184/);
    },
  );

  it("names the operator's own denylist per pool: operator_denied where it is listed", async () => {
    const since = logLines.length;
    const { body, raw } = await check('operator');
    expect(body.destination).toEqual({ result: 'destination_refused' });
    expect(raw).not.toMatch(/corp\.internal|operator_denied|10\.9\./);
    const logged = refusalsLogged('operator', since).map((line) => [line.pool, line.reason, line.origin]);
    expect(logged.sort()).toEqual([
      ['edge', 'private_destination', 'https://api.corp.internal:443'],
      ['local', 'operator_denied', 'https://api.corp.internal:443'],
    ]);
  });

  it('is admitted when one pool admits: a private range opted into by the tenant on the pool that allows it', async () => {
    const since = logLines.length;
    const { body } = await check('opted');
    expect(body.destination).toEqual({ result: 'admitted' });
    // The narrow pool still refused it, and says so to the operator alone.
    expect(refusalsLogged('opted', since)).toEqual([
      expect.objectContaining({
        pool: 'edge',
        reason: 'private_destination',
        origin: 'https://opted.example:443',
      }),
    ]);
  });

  it('is admissible only when approved AND admitted: an approved metadata destination is not', async () => {
    await approve('metadata');
    const { body } = await check('metadata');
    expect(body).toMatchObject({
      activation: { state: 'approved' },
      destination: { result: 'destination_refused' },
      admissible: false,
    });
  });

  it('lists stdio authority per open pool, from HostPolicy ∩ ceiling', async () => {
    const everything = await check('everything');
    expect(everything.body).toMatchObject({
      transport: 'stdio',
      destination: { result: 'not_applicable' },
      stdio: [
        { pool: 'edge', result: 'refused', reason: 'stdio_not_allowed_on_pool' },
        { pool: 'local', result: 'allowed', reason: null },
      ],
      admissible: false,
    });
    expect((await check('rooted')).body.stdio).toEqual([
      { pool: 'edge', result: 'refused', reason: 'stdio_not_allowed_on_pool', key: null },
      { pool: 'local', result: 'allowed', reason: null, key: null },
    ]);
    expect((await check('escaping')).body.stdio[1]).toEqual({
      pool: 'local',
      result: 'refused',
      reason: 'cwd_outside_allowed_roots',
      key: null,
    });
    for (const serverName of ['notes', 'dotted']) {
      expect((await check(serverName)).body.stdio[1]).toEqual({
        pool: 'local',
        result: 'refused',
        reason: 'command_not_allowed',
        key: null,
      });
    }

    await approve('everything');
    expect((await check('everything')).body).toMatchObject({
      activation: { state: 'approved' },
      admissible: true,
    });
    await approve('notes');
    expect((await check('notes')).body).toMatchObject({
      activation: { state: 'approved' },
      admissible: false,
    });
  });

  it('lists header-helper authority per pool; admissible only where destination and helper both pass', async () => {
    const helped = await check('helped');
    expect(helped.body).toMatchObject({
      transport: 'http',
      destination: { result: 'admitted' },
      stdio: [],
      headerHelper: [
        { pool: 'edge', result: 'refused', reason: 'header_helpers_not_allowed_on_pool' },
        { pool: 'local', result: 'allowed', reason: null },
      ],
    });
    expect((await check('unhelped')).body.headerHelper[1]).toEqual({
      pool: 'local',
      result: 'refused',
      reason: 'command_not_allowed',
      key: null,
    });
    expect((await check('public')).body.headerHelper).toEqual([]);
    await approve('helped');
    await approve('unhelped');
    expect((await check('helped')).body).toMatchObject({
      activation: { state: 'approved' },
      admissible: true,
    });
    expect((await check('unhelped')).body).toMatchObject({
      activation: { state: 'approved' },
      admissible: false,
    });
  });

  it('refuses a HostPolicy entry outside every ceiling, naming the entry, and keeps the policy as it was', async () => {
    const refused = await rest('admin', 'PUT', '/v1/host-policy', {
      stdioCommands: [EVERYTHING, ['bash', '-c']],
      headerHelpers: [HELPER],
      privateCidrs: ['10.1.0.0/16'],
      traceContextOrigins: [],
      fourEyes: false,
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'outside_operator_ceiling',
      errors: [{ path: 'stdioCommands.1', message: expect.stringContaining('outside the ceiling') }],
    });
    const metadata = await rest('admin', 'PUT', '/v1/host-policy', {
      stdioCommands: [],
      headerHelpers: [],
      privateCidrs: ['169.254.0.0/16'],
      traceContextOrigins: [],
      fourEyes: false,
    });
    expect(metadata.body).toMatchObject({
      code: 'outside_operator_ceiling',
      errors: [{ path: 'privateCidrs.0' }],
    });
    expect((await check('everything')).body.stdio[1]).toEqual({
      pool: 'local',
      result: 'allowed',
      reason: null,
      key: null,
    });
  });

  it('decides for a member of the tenant, and treats anyone else as unknown (404)', async () => {
    const forMember = await check('public', { principalUserId: member.id });
    expect(forMember.status).toBe(200);
    expect(forMember.body).toMatchObject({
      principalUserId: member.id,
      found: true,
      destination: { result: 'admitted' },
    });
    for (const principalUserId of [globexUser.id, randomUUID()]) {
      const refused = await check('public', { principalUserId });
      expect(refused.status).toBe(404);
      expect(refused.body).toMatchObject({ code: 'not_found' });
    }
  });

  it("gives another tenant's owner a 404 for this tenant's workspace, over REST and GraphQL", async () => {
    const refused = await check('public', {}, 'globexOwner');
    expect(refused.status).toBe(404);
    const response = await app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { authorization: `Bearer ${tokens.admin}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        query: `query { admissionCheck(input: { workspaceId: "${workspaceId}", serverName: "private" }) {
          found transport destination { result } stdio { pool result reason } admissible } }`,
      }),
    });
    bodies.push(response.body);
    const gql = JSON.parse(response.body) as { data?: { admissionCheck?: Record<string, unknown> } };
    expect(gql.data?.admissionCheck).toEqual({
      found: true,
      transport: 'http',
      destination: { result: 'destination_refused' },
      stdio: [],
      admissible: false,
    });
  });

  it('the effective view says which approved servers can never run, and why', async () => {
    type Entry = {
      name: string;
      status: string;
      activation: { state: string };
      beneathOverlay: { state: string; approvalId: string | null } | null;
      overlay: { scope: string; reason: string | null } | null;
      admission: { admissible: boolean; reasons: string[] } | null;
    };
    const effective = async () => {
      const view = await rest(
        'admin',
        'GET',
        `/v1/workspaces/${workspaceId}/effective-definitions?view=workspace`,
      );
      expect(view.status).toBe(200);
      return new Map((view.body.entries as Entry[]).map((entry) => [entry.name, entry]));
    };
    const entries = await effective();
    // Approved and admitted on a pool: admissible, as admission.check says.
    expect(entries.get('public')).toMatchObject({
      activation: { state: 'approved' },
      admission: { admissible: true, reasons: [] },
      overlay: null,
      beneathOverlay: null,
    });
    expect(entries.get('everything')?.admission).toEqual({ admissible: true, reasons: [] });
    // Approved, but no pool may ever run it: the ceiling of one, the tenant's narrowing on the other.
    expect(entries.get('notes')).toMatchObject({ activation: { state: 'approved' } });
    expect(entries.get('notes')?.admission?.admissible).toBe(false);
    expect([...(entries.get('notes')?.admission?.reasons ?? [])].sort()).toEqual(
      ['command_not_allowed', 'stdio_not_allowed_on_pool'].sort(),
    );
    // A refused destination is one class for the tenant, whatever the cause (the detail is the operator's).
    expect(entries.get('metadata')?.admission).toEqual({
      admissible: false,
      reasons: ['destination_refused'],
    });
    // Not approved: nothing judged (activation says why).
    expect(entries.get('dotted')).toMatchObject({ admission: null });

    // Disabled with an approval in force: disabled, and the approval beneath it, with the overlay's reason.
    const approvalId = (entries.get('public')?.activation as { approvalId?: string }).approvalId;
    const disabled = await rest('admin', 'PUT', `/v1/workspaces/${workspaceId}/disabled-servers/public`, {
      scope: 'workspace',
      reason: 'Paused during the vendor review',
    });
    expect(disabled.status).toBeLessThan(300);
    // The overlay's reason is in its audit row too.
    const audited = await db.withTenant(acme.id, (tx) =>
      tx.auditEvent.findFirst({ where: { action: 'definitions.overlays.set' }, orderBy: { seq: 'desc' } }),
    );
    expect(audited?.data).toMatchObject({ serverName: 'public', reason: 'Paused during the vendor review' });
    expect((await effective()).get('public')).toMatchObject({
      status: 'disabled',
      activation: { state: 'pending' },
      beneathOverlay: { state: 'approved', approvalId },
      overlay: { scope: 'workspace', reason: 'Paused during the vendor review' },
      admission: null,
    });
    const cleared = await rest(
      'admin',
      'DELETE',
      `/v1/workspaces/${workspaceId}/disabled-servers/public?scope=workspace`,
    );
    expect(cleared.status).toBeLessThan(300);
    expect((await effective()).get('public')).toMatchObject({ status: 'resolved', overlay: null });
  });

  it('never lets a secret out (responses, log lines), nor a URL path or refusal detail out of a check', () => {
    expect(checkBodies.length).toBeGreaterThan(20);
    expect([...bodies, ...logLines].join('\n')).not.toContain(CANARY);
    expect(logLines.join('\n')).not.toContain(PATH_CANARY);
    const checks = checkBodies.join('\n');
    expect(checks).not.toContain(PATH_CANARY);
    expect(checks).not.toMatch(/_destination|unresolvable|operator_denied/);
    // The operator log did get the detail (so the assertions above are not vacuous).
    expect(logLines.join('\n')).toMatch(/"reason":"metadata_destination"/);
  });
});
