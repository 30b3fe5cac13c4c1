import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CHILD_ENV_KEYS } from '@gatehouse/activation';
import { COMMANDS } from '@gatehouse/commands';
import { insertGatewayToken } from '@gatehouse/db';
import {
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
import { mintTokenSecret } from '../auth/api-token-format';
import { callCommand, commandNamed, type CallResult, type Surface } from './testing/command-clients';
import {
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from './testing/surfaces-harness';

// Every command of the registry, on BOTH surfaces: a happy path and at least one refusal each. Each case builds
// the rows it changes, so the REST run and the GraphQL run never see each other's effects. The refusals cover
// the whole ladder: 401 without a credential, 403 `forbidden_scope` for a credential without the scope, 403
// `forbidden` for a role rule, 404 for another tenant's ids, 409 for conflicts, 400 for bad input.

jest.setTimeout(60_000);

let h: SurfacesHarness;
let acme: TestTenant;
let globex: TestTenant;
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
const tokens = { owner: '', admin: '', member: '', agent: '', globexOwner: '' };
let globexWorkspaceId: string;
let globexTokenId: string;
let globexUser: TestUser;

beforeAll(async () => {
  h = await createSurfacesHarness();
  acme = await createTestTenant(h.db, { slug: `acme-${randomUUID().slice(0, 6)}` });
  globex = await createTestTenant(h.db, { slug: `globex-${randomUUID().slice(0, 6)}` });
  owner = await createMember(h.db, acme, 'owner');
  admin = await createMember(h.db, acme, 'admin');
  member = await createMember(h.db, acme, 'member');
  const agentWorkspace = await createTestWorkspace(h.db, acme.id);
  tokens.owner = (await mintTestToken(h.db, acme, owner, { kind: 'user' })).secret;
  tokens.admin = (await mintTestToken(h.db, acme, admin, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(h.db, acme, member, { kind: 'user' })).secret;
  tokens.agent = (
    await mintTestToken(h.db, acme, owner, {
      kind: 'agent',
      scopes: ['catalog:read'],
      workspaceIds: [agentWorkspace.id],
    })
  ).secret;

  globexUser = await createMember(h.db, globex, 'owner');
  const globexToken = await mintTestToken(h.db, globex, globexUser, { kind: 'user' });
  tokens.globexOwner = globexToken.secret;
  globexTokenId = globexToken.id;
  globexWorkspaceId = (await createTestWorkspace(h.db, globex.id)).id;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

let gatewaySecret: string | undefined;

/** An agent token of a fresh workspace, and the gateway token (made once, as the operator's CLI does). */
async function introspectionSetup(): Promise<{
  agent: { id: string; secret: string };
  workspaceId: string;
  gateway: string;
}> {
  if (gatewaySecret === undefined) {
    const minted = mintTokenSecret('gateway');
    await insertGatewayToken({
      ownerUrl: h.testDb.ownerUrl,
      name: 'surfaces gateway',
      scopes: ['tokens:introspect'],
      pool: null,
      secretHash: minted.secretHash,
      prefix: minted.prefix,
      expiresAt: null,
    });
    gatewaySecret = minted.secret;
  }
  const workspaceId = (await workspace()).id;
  const agent = await mintTestToken(h.db, acme, owner, {
    kind: 'agent',
    scopes: ['gateway:use'],
    workspaceIds: [workspaceId],
  });
  return { agent, workspaceId, gateway: gatewaySecret };
}

type Input = Record<string, unknown>;
type Prepared = { token?: string; input: Input };

interface Refusal {
  readonly label: string;
  readonly status: number;
  readonly code: string;
  setup(surface: Surface): Promise<Prepared>;
}

interface CommandCase {
  readonly command: string;
  happy(surface: Surface): Promise<Prepared & { verify(output: Input): void | Promise<void> }>;
  readonly refusals: readonly Refusal[];
}

const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;
const workspace = () => createTestWorkspace(h.db, acme.id, { name: unique('ws') });

function refusal(label: string, status: number, code: string, setup: Refusal['setup']): Refusal {
  return { label, status, code, setup };
}

/** A workspace service credential that needs sign-in (no tokens, no revocation endpoint), as a row. */
async function serviceCredentialIn(workspaceId: string): Promise<string> {
  const id = randomUUID();
  await h.db.withTenant(acme.id, (tx) =>
    tx.oAuthCredential.create({
      data: {
        id,
        tenantId: acme.id,
        subjectKind: 'workspace',
        subject: `workspace:${workspaceId}`,
        subjectWorkspaceId: workspaceId,
        serverIdentity: `sid:v1:${randomUUID().replace(/-/g, '')}`,
        resource: 'https://mcp.example.com/mcp',
        issuer: 'https://auth.example.com',
        status: 'needs_sign_in',
        tokenEndpoint: 'https://auth.example.com/token',
        clientId: 'gatehouse',
      },
    }),
  );
  return id;
}

/** Rows the definition cases need, written through the API itself (documents and values are sealed on the way). */
async function seed(command: string, input: Input, token = tokens.admin): Promise<Input> {
  const result = await callCommand('rest', h.app, command, input, token);
  expectSuccess(result);
  return result.output;
}

/** An http server and a stdio server whose env holds a literal the projections must mask. */
function serversDocument(apiKey = 'literal-key'): Input {
  return {
    mcpServers: {
      github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' },
      tools: { type: 'stdio', command: 'npx', args: ['-y', 'tools-mcp'], env: { API_KEY: apiKey } },
    },
  };
}

/**
 * A managed source is tenant-wide and wins over every project source, so its servers are named after it: the
 * managed sources these cases leave behind never shadow another case's `github` or `tools`.
 */
function managedDocument(name: string, apiKey = 'literal-key'): Input {
  return {
    mcpServers: {
      [`${name}-http`]: { type: 'http', url: 'https://mcp.example.test/mcp' },
      [`${name}-stdio`]: {
        type: 'stdio',
        command: 'npx',
        args: ['-y', 'tools-mcp'],
        env: { API_KEY: apiKey },
      },
    },
  };
}

async function managedSource(): Promise<{ id: string; name: string }> {
  const name = unique('policy');
  const source = await seed('definitions.sources.put', {
    tier: 'managed',
    name,
    document: managedDocument(name),
  });
  return { id: source.id as string, name };
}

/** The owner's own local source in a fresh workspace: anyone else must find it missing. */
async function ownerLocalSource(): Promise<{ id: string; workspaceId: string }> {
  const ws = await workspace();
  const source = await seed(
    'definitions.sources.import',
    { tier: 'local', workspaceId: ws.id, content: JSON.stringify(serversDocument()) },
    tokens.owner,
  );
  return { id: source.id as string, workspaceId: ws.id };
}

/**
 * One trusted workspace per tenant for the approval cases, with many http servers: each case takes a server of
 * its own, so the cases stay independent without a workspace each (a tenant-wide write re-decides every
 * workspace).
 */
const POOL_SIZE = 32;
const approvalPools = new Map<'acme' | 'globex', Promise<{ workspaceId: string; next: number }>>();

function approvalPool(tenant: 'acme' | 'globex'): Promise<{ workspaceId: string; next: number }> {
  let pool = approvalPools.get(tenant);
  if (pool === undefined) {
    pool = (async () => {
      const token = tenant === 'acme' ? tokens.owner : tokens.globexOwner;
      const ws = await createTestWorkspace(h.db, tenant === 'acme' ? acme.id : globex.id, {
        name: unique('ws'),
      });
      await seed('workspaces.setTrust', { workspaceId: ws.id, trusted: true }, token);
      const servers = Object.fromEntries(
        Array.from({ length: POOL_SIZE }, (_, n) => [
          `srv-${n}`,
          { type: 'http', url: `https://srv-${n}.example.test/mcp` },
        ]),
      );
      await seed(
        'definitions.sources.put',
        { tier: 'project', workspaceId: ws.id, document: { mcpServers: servers } },
        token,
      );
      return { workspaceId: ws.id, next: 0 };
    })();
    approvalPools.set(tenant, pool);
  }
  return pool;
}

/** A server no other case has used, in the tenant's approval workspace. */
async function freshServer(
  tenant: 'acme' | 'globex' = 'acme',
): Promise<{ workspaceId: string; serverName: string }> {
  const pool = await approvalPool(tenant);
  if (pool.next >= POOL_SIZE) throw new Error('approval cases: raise POOL_SIZE');
  const serverName = `srv-${pool.next}`;
  pool.next += 1;
  return { workspaceId: pool.workspaceId, serverName };
}

/** An open approval request for a fresh server, asked for by the tenant's owner. */
async function openRequestFor(tenant: 'acme' | 'globex' = 'acme'): Promise<{
  id: string;
  workspaceId: string;
  serverName: string;
  fingerprint: string;
  identityKey: string;
}> {
  const server = await freshServer(tenant);
  const request = await seed(
    'approvals.requests.open',
    server,
    tenant === 'acme' ? tokens.owner : tokens.globexOwner,
  );
  const identity = request.identity as { key: string; definitionFingerprint: string };
  return {
    id: request.id as string,
    ...server,
    fingerprint: identity.definitionFingerprint,
    identityKey: identity.key,
  };
}

/** A recorded approval (decided by acme's approver, or by another tenant's owner for that tenant's). */
async function approvalFor(
  tenant: 'acme' | 'globex' = 'acme',
): Promise<{ id: string; workspaceId: string; serverName: string }> {
  const request = await openRequestFor(tenant);
  const approval = await seed(
    'approvals.requests.decide',
    {
      requestId: request.id,
      decision: 'approve',
      seenFingerprint: request.fingerprint,
      seenIdentityKey: request.identityKey,
    },
    tenant === 'acme' ? (await approver()).token : tokens.globexOwner,
  );
  return { id: approval.id as string, workspaceId: request.workspaceId, serverName: request.serverName };
}

/** The activation state of one server in a workspace's own view. */
async function activationStateOf(workspaceId: string, serverName: string): Promise<string | undefined> {
  const view = await seed('definitions.effective', { workspaceId, view: 'workspace' });
  const entry = (view.entries as { name: string; activation: { state: string } }[]).find(
    (e) => e.name === serverName,
  );
  return entry?.activation.state;
}

/**
 * acme's approver, who decides in these cases and never writes anything: events add their author to every open
 * request they re-decide, so with four-eyes on (hostPolicy.put turns it on) a writer could not approve.
 */
let approverOfAcme: Promise<{ id: string; token: string }> | undefined;
function approver(): Promise<{ id: string; token: string }> {
  approverOfAcme ??= createMember(h.db, acme, 'approver').then(async (user) => ({
    id: user.id,
    token: (await mintTestToken(h.db, acme, user, { kind: 'user' })).secret,
  }));
  return approverOfAcme;
}

/**
 * admission.check reads only, so every run shares one workspace with a project source (each workspace makes
 * every managed-source write of the later cases fan out further).
 */
/**
 * Leases: one trusted workspace with one approved http server at a public address literal (no DNS needed), and a
 * worker token of the harness's `default` pool. Each case leases anew, so runs never share a lease.
 */
let leaseWorld: Promise<{ workspaceId: string; worker: string }> | undefined;
function leaseSetup(): Promise<{ workspaceId: string; worker: string }> {
  leaseWorld ??= workspace().then(async (ws) => {
    await seed('workspaces.setTrust', { workspaceId: ws.id, trusted: true }, tokens.owner);
    await seed(
      'definitions.sources.put',
      {
        tier: 'project',
        workspaceId: ws.id,
        document: { mcpServers: { leased: { type: 'http', url: 'https://93.184.216.34/mcp' } } },
      },
      tokens.owner,
    );
    const request = await seed(
      'approvals.requests.open',
      { workspaceId: ws.id, serverName: 'leased' },
      tokens.owner,
    );
    const identity = request.identity as { key: string; definitionFingerprint: string };
    await seed(
      'approvals.requests.decide',
      {
        requestId: request.id,
        decision: 'approve',
        seenFingerprint: identity.definitionFingerprint,
        seenIdentityKey: identity.key,
      },
      (await approver()).token,
    );
    const worker = await mintTestToken(h.db, acme, owner, {
      kind: 'worker',
      scopes: ['leases:write'],
      pool: 'default',
    });
    return { workspaceId: ws.id, worker: worker.secret };
  });
  return leaseWorld;
}

async function freshLease(): Promise<{ id: string; worker: string }> {
  const { workspaceId, worker } = await leaseSetup();
  const issued = await seed('leases.issue', { workspaceId, serverName: 'leased' }, worker);
  return { id: issued.id as string, worker };
}

let admissionWorkspaceRow: Promise<{ id: string }> | undefined;
function admissionWorkspace(): Promise<{ id: string }> {
  admissionWorkspaceRow ??= workspace().then(async (ws) => {
    await seed('definitions.sources.put', {
      tier: 'project',
      workspaceId: ws.id,
      document: serversDocument(),
    });
    return ws;
  });
  return admissionWorkspaceRow;
}

const CASES: readonly CommandCase[] = [
  {
    command: 'me.get',
    happy: async () => ({
      token: tokens.owner,
      input: {},
      verify: (out) =>
        expect(out).toMatchObject({
          tenantId: acme.id,
          userId: owner.id,
          role: 'owner',
          via: 'user',
          email: owner.email,
        }),
    }),
    refusals: [
      refusal('no credential', 401, 'unauthenticated', async () => ({ input: {} })),
      refusal('an agent token (no tenant:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.agent,
        input: {},
      })),
    ],
  },
  {
    command: 'tenant.get',
    happy: async () => ({
      token: tokens.member,
      input: {},
      verify: (out) => expect(out).toMatchObject({ id: acme.id, slug: acme.slug }),
    }),
    refusals: [
      refusal('an agent token', 403, 'forbidden_scope', async () => ({ token: tokens.agent, input: {} })),
    ],
  },
  {
    command: 'tenant.rename',
    happy: async () => {
      const name = unique('Acme');
      return {
        token: tokens.owner,
        input: { name },
        verify: (out) => expect(out).toMatchObject({ id: acme.id, name }),
      };
    },
    refusals: [
      refusal('a member (no tenant:write)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { name: 'X' },
      })),
      refusal('an empty name', 400, 'validation_failed', async () => ({
        token: tokens.owner,
        input: { name: '   ' },
      })),
    ],
  },
  {
    command: 'members.list',
    happy: async () => ({
      token: tokens.admin,
      input: { limit: 100 },
      verify: (out) => {
        const ids = (out.items as { userId: string }[]).map((m) => m.userId);
        expect(ids).toEqual(expect.arrayContaining([owner.id, admin.id, member.id]));
        expect(ids).not.toContain(globexUser.id);
      },
    }),
    refusals: [
      refusal('a member (no members:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
    ],
  },
  {
    command: 'invitations.create',
    happy: async () => {
      // An account of another tenant: invited like any address, and not made a member by it.
      const outsider = await createMember(h.db, globex, 'member');
      return {
        token: tokens.admin,
        input: { email: outsider.email.toUpperCase(), role: 'approver' },
        verify: (out) => {
          expect(out).toMatchObject({
            invitation: { email: outsider.email, role: 'approver', status: 'pending', createdBy: admin.id },
            secret: expect.stringMatching(/^ghi_/),
          });
          expect(JSON.stringify(out)).not.toContain(outsider.id);
        },
      };
    },
    refusals: [
      refusal('an admin inviting an owner', 403, 'forbidden', async () => ({
        token: tokens.admin,
        input: { email: `${unique('nobody')}@example.test`, role: 'owner' },
      })),
      refusal('a member (no members:write)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { email: `${unique('nobody')}@example.test`, role: 'member' },
      })),
      refusal('an existing member', 409, 'conflict', async () => ({
        token: tokens.admin,
        input: { email: member.email, role: 'member' },
      })),
    ],
  },
  {
    command: 'invitations.list',
    happy: async () => {
      const email = `${unique('listed')}@example.test`;
      await seed('invitations.create', { email, role: 'member' });
      return {
        token: tokens.admin,
        input: { limit: 200 },
        verify: (out) => {
          const items = out.items as { email: string; status: string }[];
          expect(items.find((i) => i.email === email)).toMatchObject({ status: 'pending' });
          expect(JSON.stringify(out)).not.toContain('ghi_');
        },
      };
    },
    refusals: [
      refusal('a member (no members:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
    ],
  },
  {
    command: 'invitations.revoke',
    happy: async () => {
      const created = await seed('invitations.create', {
        email: `${unique('revoked')}@example.test`,
        role: 'member',
      });
      const id = (created.invitation as { id: string }).id;
      return {
        token: tokens.admin,
        input: { invitationId: id },
        verify: (out) => expect(out).toMatchObject({ id, status: 'revoked', revokedBy: admin.id }),
      };
    },
    refusals: [
      refusal('another tenant’s invitation', 404, 'not_found', async () => {
        const created = await seed(
          'invitations.create',
          { email: `${unique('theirs')}@example.test`, role: 'member' },
          tokens.globexOwner,
        );
        return { token: tokens.admin, input: { invitationId: (created.invitation as { id: string }).id } };
      }),
      refusal('an invitation revoked already', 409, 'conflict', async () => {
        const created = await seed('invitations.create', {
          email: `${unique('twice')}@example.test`,
          role: 'member',
        });
        const invitationId = (created.invitation as { id: string }).id;
        await seed('invitations.revoke', { invitationId });
        return { token: tokens.admin, input: { invitationId } };
      }),
    ],
  },
  {
    command: 'invitations.accept',
    happy: async () => {
      // A person of globex, invited to acme, accepts with their own (globex) token.
      const person = await createMember(h.db, globex, 'member');
      const personToken = (await mintTestToken(h.db, globex, person, { kind: 'user' })).secret;
      const created = await seed('invitations.create', { email: person.email, role: 'approver' });
      return {
        token: personToken,
        input: { secret: created.secret },
        verify: (out) =>
          expect(out).toMatchObject({ tenant: { id: acme.id, slug: acme.slug }, role: 'approver' }),
      };
    },
    refusals: [
      refusal('someone other than the invited address', 404, 'not_found', async () => {
        const created = await seed('invitations.create', {
          email: `${unique('not-you')}@example.test`,
          role: 'member',
        });
        return { token: tokens.globexOwner, input: { secret: created.secret } };
      }),
      refusal('an agent token (no tenant:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.agent,
        input: { secret: `ghi_${'A'.repeat(43)}` },
      })),
      refusal('not an invitation secret', 400, 'validation_failed', async () => ({
        token: tokens.globexOwner,
        input: { secret: 'ghu_not-an-invitation' },
      })),
    ],
  },
  {
    command: 'members.changeRole',
    happy: async () => {
      const target = await createMember(h.db, acme, 'member');
      return {
        token: tokens.owner,
        input: { userId: target.id, role: 'approver' },
        verify: (out) => expect(out).toMatchObject({ userId: target.id, role: 'approver' }),
      };
    },
    refusals: [
      refusal("an admin changing an owner's role", 403, 'forbidden', async () => ({
        token: tokens.admin,
        input: { userId: owner.id, role: 'member' },
      })),
      refusal('another tenant’s user', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { userId: globexUser.id, role: 'member' },
      })),
      refusal('demoting the last owner', 409, 'conflict', async () => ({
        token: tokens.owner,
        input: { userId: owner.id, role: 'admin' },
      })),
    ],
  },
  {
    command: 'members.remove',
    happy: async () => {
      const target = await createMember(h.db, acme, 'member');
      return {
        token: tokens.admin,
        input: { userId: target.id },
        verify: (out) => expect(out).toEqual({ removed: true }),
      };
    },
    refusals: [
      refusal('another tenant’s user', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { userId: globexUser.id },
      })),
      refusal('an admin removing an owner', 403, 'forbidden', async () => ({
        token: tokens.admin,
        input: { userId: owner.id },
      })),
      refusal('removing the last owner', 409, 'conflict', async () => ({
        token: tokens.owner,
        input: { userId: owner.id },
      })),
    ],
  },
  {
    command: 'workspaces.list',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.member,
        input: { limit: 200 },
        verify: (out) => {
          const ids = (out.items as { id: string }[]).map((w) => w.id);
          expect(ids).toContain(ws.id);
          expect(ids).not.toContain(globexWorkspaceId);
        },
      };
    },
    refusals: [
      refusal('a malformed cursor', 400, 'bad_cursor', async () => ({
        token: tokens.member,
        input: { cursor: 'bm90LWEtY3Vyc29y' },
      })),
      refusal('a limit out of range', 400, 'validation_failed', async () => ({
        token: tokens.member,
        input: { limit: 1000 },
      })),
    ],
  },
  {
    command: 'workspaces.get',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.member,
        input: { workspaceId: ws.id },
        verify: (out) => expect(out).toMatchObject({ id: ws.id, name: ws.name }),
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: globexWorkspaceId },
      })),
      refusal('a malformed id', 400, 'validation_failed', async () => ({
        token: tokens.owner,
        input: { workspaceId: 'not-a-uuid' },
      })),
    ],
  },
  {
    command: 'workspaces.create',
    happy: async () => {
      const name = unique('new ws');
      return {
        token: tokens.admin,
        input: { name, repositoryIdentity: 'https://git.example.test/acme/repo' },
        verify: (out) => expect(out).toMatchObject({ name, generation: 1, trusted: false }),
      };
    },
    refusals: [
      refusal('a taken name', 409, 'conflict', async () => ({
        token: tokens.admin,
        input: { name: (await workspace()).name },
      })),
      refusal('a member (no workspaces:write)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { name: unique('w') },
      })),
    ],
  },
  {
    command: 'workspaces.rename',
    happy: async () => {
      const ws = await workspace();
      const name = unique('renamed');
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, name },
        verify: (out) => expect(out).toMatchObject({ id: ws.id, name }),
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId, name: unique('x') },
      })),
      refusal('a name with a slash', 400, 'validation_failed', async () => ({
        token: tokens.admin,
        input: { workspaceId: (await workspace()).id, name: 'a/b' },
      })),
    ],
  },
  {
    command: 'workspaces.setTrust',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, trusted: true },
        verify: (out) => expect(out).toMatchObject({ trusted: true }),
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId, trusted: true },
      })),
      refusal('a non-boolean', 400, 'validation_failed', async () => ({
        token: tokens.admin,
        input: { workspaceId: (await workspace()).id, trusted: 'yes' },
      })),
    ],
  },
  {
    command: 'workspaces.bumpGeneration',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, expectedGeneration: 1 },
        verify: (out) => expect(out).toMatchObject({ id: ws.id, generation: 2 }),
      };
    },
    refusals: [
      refusal('a stale expectedGeneration', 409, 'conflict', async () => ({
        token: tokens.admin,
        input: { workspaceId: (await workspace()).id, expectedGeneration: 7 },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId },
      })),
    ],
  },
  {
    command: 'workspaces.maintainers.list',
    happy: async () => {
      const ws = await workspace();
      await h.db.withTenant(acme.id, (tx) =>
        tx.workspaceMember.create({ data: { tenantId: acme.id, workspaceId: ws.id, userId: member.id } }),
      );
      return {
        token: tokens.member,
        input: { workspaceId: ws.id },
        verify: (out) =>
          expect(out).toMatchObject({
            items: [{ userId: member.id, email: member.email }],
            nextCursor: null,
          }),
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: globexWorkspaceId },
      })),
    ],
  },
  {
    command: 'workspaces.maintainers.add',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, userId: member.id },
        verify: (out) => expect(out).toMatchObject({ userId: member.id, email: member.email }),
      };
    },
    refusals: [
      refusal('a user who is not a member here', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: (await workspace()).id, userId: globexUser.id },
      })),
      refusal('an existing maintainer', 409, 'conflict', async () => {
        const ws = await workspace();
        await h.db.withTenant(acme.id, (tx) =>
          tx.workspaceMember.create({ data: { tenantId: acme.id, workspaceId: ws.id, userId: admin.id } }),
        );
        return { token: tokens.admin, input: { workspaceId: ws.id, userId: admin.id } };
      }),
    ],
  },
  {
    command: 'workspaces.maintainers.remove',
    happy: async () => {
      const ws = await workspace();
      await h.db.withTenant(acme.id, (tx) =>
        tx.workspaceMember.create({ data: { tenantId: acme.id, workspaceId: ws.id, userId: member.id } }),
      );
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, userId: member.id },
        verify: (out) => expect(out).toEqual({ removed: true }),
      };
    },
    refusals: [
      refusal('a user who is no maintainer', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: (await workspace()).id, userId: member.id },
      })),
    ],
  },
  {
    command: 'tokens.list',
    happy: async () => ({
      token: tokens.owner,
      input: { limit: 200, includeRevoked: true },
      verify: (out) => {
        const items = out.items as Record<string, unknown>[];
        expect(items.length).toBeGreaterThanOrEqual(4);
        for (const item of items) {
          expect(Object.keys(item).sort()).toEqual(
            [
              'createdAt',
              'expiresAt',
              'id',
              'kind',
              'lastUsedAt',
              'name',
              'pool',
              'prefix',
              'revokedAt',
              'scopes',
              'userId',
              'workspaceIds',
            ].sort(),
          );
          expect(item.id).not.toBe(globexTokenId);
        }
      },
    }),
    refusals: [
      refusal('an agent token', 403, 'forbidden_scope', async () => ({ token: tokens.agent, input: {} })),
    ],
  },
  {
    command: 'tokens.create',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.admin,
        input: {
          name: unique('agent'),
          kind: 'agent',
          scopes: ['catalog:read', 'gateway:use'],
          workspaceIds: [ws.id],
          expiresInDays: 30,
        },
        verify: (out) => {
          expect(out.secret).toMatch(/^gha_[0-9A-Za-z]{43}$/);
          expect(out.token).toMatchObject({
            kind: 'agent',
            workspaceIds: [ws.id],
            prefix: (out.secret as string).slice(0, 10),
          });
        },
      };
    },
    refusals: [
      refusal('approvals:decide on an agent token', 400, 'scope_not_allowed_for_kind', async () => ({
        token: tokens.admin,
        input: {
          name: unique('a'),
          kind: 'agent',
          scopes: ['approvals:decide'],
          workspaceIds: [(await workspace()).id],
        },
      })),
      refusal('a member asking for an agent token', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {
          name: unique('u'),
          kind: 'agent',
          scopes: ['catalog:read'],
          workspaceIds: [(await workspace()).id],
        },
      })),
      refusal('another tenant’s workspace binding', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: {
          name: unique('a'),
          kind: 'agent',
          scopes: ['catalog:read'],
          workspaceIds: [globexWorkspaceId],
        },
      })),
    ],
  },
  {
    command: 'tokens.revoke',
    happy: async () => {
      const target = await mintTestToken(h.db, acme, member, { kind: 'user', scopes: ['tenant:read'] });
      return {
        token: tokens.admin,
        input: { tokenId: target.id },
        verify: async (out) => {
          expect(out).toMatchObject({ id: target.id });
          expect(out.revokedAt).not.toBeNull();
          // The revoked secret no longer authenticates.
          const after = await callCommand('rest', h.app, 'me.get', {}, target.secret);
          expect(after).toMatchObject({ ok: false, status: 401, code: 'unauthenticated' });
        },
      };
    },
    refusals: [
      refusal('another tenant’s token', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { tokenId: globexTokenId },
      })),
    ],
  },
  {
    command: 'audit.list',
    happy: async () => ({
      token: tokens.owner,
      input: { limit: 5 },
      verify: (out) => {
        const items = out.items as { action: string }[];
        expect(items.length).toBeGreaterThan(0);
        expect(items.length).toBeLessThanOrEqual(5);
      },
    }),
    refusals: [
      refusal('a malformed cursor', 400, 'bad_cursor', async () => ({
        token: tokens.owner,
        input: { cursor: 'AAAA' },
      })),
      refusal('a member (no audit:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
    ],
  },
  {
    command: 'audit.head',
    happy: async () => ({
      token: tokens.owner,
      input: {},
      verify: (out) =>
        expect(out).toMatchObject({ tenantId: acme.id, hash: expect.stringMatching(/^[0-9a-f]{64}$/) }),
    }),
    refusals: [
      refusal('a member (no audit:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
    ],
  },
  {
    command: 'audit.verify',
    happy: async () => ({
      token: tokens.owner,
      input: {},
      verify: (out) => expect(out).toMatchObject({ ok: true, firstBadSeq: null }),
    }),
    refusals: [
      refusal('a malformed checkpoint hash', 400, 'validation_failed', async () => ({
        token: tokens.owner,
        input: { checkpointSeq: 1, checkpointHash: 'zz' },
      })),
    ],
  },
  {
    command: 'definitions.sources.put',
    happy: async () => {
      const name = unique('policy');
      return {
        token: tokens.admin,
        input: { tier: 'managed', name, document: managedDocument(name, 'literal-key') },
        verify: (out) => {
          expect(out).toMatchObject({
            tier: 'managed',
            origin: `managed:${name}`,
            version: 1,
            readability: 'readable',
          });
          const states = (out.entries as { name: string; state: string }[]).map((e) => [e.name, e.state]);
          expect(states).toEqual(
            expect.arrayContaining([
              [`${name}-http`, 'valid'],
              [`${name}-stdio`, 'valid'],
            ]),
          );
          expect(JSON.stringify(out)).not.toContain('literal-key');
        },
      };
    },
    refusals: [
      refusal('a member writing a managed source', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { tier: 'managed', name: unique('policy'), document: managedDocument(unique('policy')) },
      })),
      refusal('a stale expectedVersion', 409, 'conflict', async () => {
        const source = await managedSource();
        return {
          token: tokens.admin,
          input: {
            tier: 'managed',
            name: source.name,
            expectedVersion: 2,
            document: managedDocument(source.name),
          },
        };
      }),
      refusal('a placeholder that does not match the stored value', 400, 'validation_failed', async () => {
        const source = await managedSource();
        return {
          token: tokens.admin,
          input: {
            tier: 'managed',
            name: source.name,
            expectedVersion: 1,
            document: managedDocument(source.name, 'prefix-[REDACTED]'),
          },
        };
      }),
    ],
  },
  {
    command: 'definitions.sources.import',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.admin,
        input: { tier: 'project', workspaceId: ws.id, content: JSON.stringify(serversDocument(), null, 2) },
        verify: (out) =>
          expect(out).toMatchObject({
            tier: 'project',
            origin: `project:${ws.id}`,
            workspaceId: ws.id,
            version: 1,
          }),
      };
    },
    refusals: [
      refusal('content that is not JSON', 400, 'validation_failed', async () => ({
        token: tokens.admin,
        input: { tier: 'project', workspaceId: (await workspace()).id, content: '{ "mcpServers": ' },
      })),
      refusal('a member who maintains no such workspace', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: {
          tier: 'project',
          workspaceId: (await workspace()).id,
          content: JSON.stringify(serversDocument()),
        },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: {
          tier: 'project',
          workspaceId: globexWorkspaceId,
          content: JSON.stringify(serversDocument()),
        },
      })),
    ],
  },
  {
    command: 'definitions.sources.get',
    happy: async () => {
      const source = await managedSource();
      return {
        token: tokens.member,
        input: { sourceId: source.id },
        verify: (out) => {
          expect(out).toMatchObject({
            id: source.id,
            tier: 'managed',
            origin: `managed:${source.name}`,
            version: 1,
          });
          expect(JSON.stringify(out)).not.toContain('literal-key');
        },
      };
    },
    refusals: [
      refusal('another user’s local source', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { sourceId: (await ownerLocalSource()).id },
      })),
      refusal('a malformed id', 400, 'validation_failed', async () => ({
        token: tokens.member,
        input: { sourceId: 'not-a-uuid' },
      })),
    ],
  },
  {
    command: 'definitions.sources.preview',
    happy: async () => {
      const source = await managedSource();
      return {
        token: tokens.admin,
        input: {
          tier: 'managed',
          name: source.name,
          expectedVersion: 1,
          document: { mcpServers: { [`${source.name}-new`]: { command: 'node', args: ['server.js'] } } },
        },
        verify: async (out) => {
          expect(out).toMatchObject({ currentVersion: 1, nextVersion: 2, origin: `managed:${source.name}` });
          const changes = (out.entries as { name: string; change: string }[]).map((e) => [e.name, e.change]);
          expect(changes).toEqual(
            expect.arrayContaining([
              [`${source.name}-new`, 'added'],
              [`${source.name}-http`, 'removed'],
            ]),
          );
          // A dry run: the source is still at version 1.
          const after = await callCommand(
            'rest',
            h.app,
            'definitions.sources.get',
            { sourceId: source.id },
            tokens.admin,
          );
          expect(after).toMatchObject({ ok: true, output: { version: 1 } });
        },
      };
    },
    refusals: [
      refusal('a member previewing a managed source', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { tier: 'managed', name: unique('policy'), document: managedDocument(unique('policy')) },
      })),
      refusal('a stale expectedVersion', 409, 'conflict', async () => {
        const source = await managedSource();
        return {
          token: tokens.admin,
          input: {
            tier: 'managed',
            name: source.name,
            expectedVersion: 3,
            document: managedDocument(source.name),
          },
        };
      }),
    ],
  },
  {
    command: 'definitions.sources.versions',
    happy: async () => {
      const source = await managedSource();
      return {
        token: tokens.member,
        input: { sourceId: source.id },
        verify: (out) => {
          expect(out).toMatchObject({ sourceId: source.id, currentVersion: 1 });
          expect(
            (out.items as { version: number; entries: number }[]).map((v) => [v.version, v.entries]),
          ).toEqual([[1, 2]]);
        },
      };
    },
    refusals: [
      refusal('another user’s local source', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { sourceId: (await ownerLocalSource()).id },
      })),
    ],
  },
  {
    command: 'definitions.sources.version',
    happy: async () => {
      const source = await managedSource();
      return {
        token: tokens.member,
        input: { sourceId: source.id, version: 1 },
        verify: (out) => {
          expect(out).toMatchObject({ sourceId: source.id, version: 1, against: null });
          expect((out.changes as { change: string }[]).map((c) => c.change)).toEqual(['added', 'added']);
          expect(JSON.stringify(out)).not.toContain('literal-key');
        },
      };
    },
    refusals: [
      refusal('a version that is not kept', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { sourceId: (await managedSource()).id, version: 7 },
      })),
      refusal('a version below 1', 400, 'validation_failed', async () => ({
        token: tokens.member,
        input: { sourceId: (await managedSource()).id, version: 0 },
      })),
    ],
  },
  {
    command: 'definitions.sources.list',
    happy: async () => {
      const managed = await managedSource();
      const othersLocal = await ownerLocalSource();
      return {
        token: tokens.member,
        input: { workspaceId: othersLocal.workspaceId },
        verify: (out) => {
          const ids = (out.items as { id: string }[]).map((s) => s.id);
          expect(ids).toContain(managed.id);
          expect(ids).not.toContain(othersLocal.id);
        },
      };
    },
    refusals: [
      refusal('an agent token (no definitions:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.agent,
        input: {},
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: globexWorkspaceId },
      })),
    ],
  },
  {
    command: 'definitions.sources.delete',
    happy: async () => {
      const source = await managedSource();
      return {
        token: tokens.admin,
        input: { sourceId: source.id, expectedVersion: 1 },
        verify: async (out) => {
          expect(out).toEqual({ deleted: true });
          const after = await callCommand(
            'rest',
            h.app,
            'definitions.sources.get',
            { sourceId: source.id },
            tokens.admin,
          );
          expect(after).toMatchObject({ ok: false, status: 404, code: 'not_found' });
        },
      };
    },
    refusals: [
      refusal('another user’s local source', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { sourceId: (await ownerLocalSource()).id },
      })),
      refusal('a member deleting a managed source', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { sourceId: (await managedSource()).id },
      })),
      refusal('a stale expectedVersion', 409, 'conflict', async () => ({
        token: tokens.admin,
        input: { sourceId: (await managedSource()).id, expectedVersion: 3 },
      })),
    ],
  },
  {
    command: 'definitions.variables.set',
    happy: async () => {
      const ws = await workspace();
      return {
        token: tokens.admin,
        input: { scope: 'workspace', workspaceId: ws.id, name: 'GITHUB_TOKEN', value: 'variable-secret' },
        verify: (out) => {
          expect(out).toMatchObject({
            scope: 'workspace',
            workspaceId: ws.id,
            name: 'GITHUB_TOKEN',
            set: true,
          });
          expect(JSON.stringify(out)).not.toContain('variable-secret');
        },
      };
    },
    refusals: [
      refusal('a member setting a tenant variable', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { scope: 'tenant', name: 'X_SETTING', value: 'v' },
      })),
      refusal('a workspaceId on a user variable', 400, 'validation_failed', async () => ({
        token: tokens.member,
        input: { scope: 'user', workspaceId: (await workspace()).id, name: 'X_SETTING', value: 'v' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { scope: 'workspace', workspaceId: globexWorkspaceId, name: 'X_SETTING', value: 'v' },
      })),
    ],
  },
  {
    command: 'definitions.variables.unset',
    happy: async () => {
      const ws = await workspace();
      await seed('definitions.variables.set', {
        scope: 'workspace',
        workspaceId: ws.id,
        name: 'API_KEY',
        value: 'v',
      });
      return {
        token: tokens.admin,
        input: { scope: 'workspace', workspaceId: ws.id, name: 'API_KEY' },
        verify: async (out) => {
          expect(out).toMatchObject({ scope: 'workspace', workspaceId: ws.id, name: 'API_KEY', set: false });
          const listed = await seed('definitions.variables.list', { scope: 'workspace', workspaceId: ws.id });
          expect(listed.items).toEqual([]);
        },
      };
    },
    refusals: [
      refusal('a member who maintains no such workspace', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { scope: 'workspace', workspaceId: (await workspace()).id, name: 'API_KEY' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { scope: 'workspace', workspaceId: globexWorkspaceId, name: 'API_KEY' },
      })),
    ],
  },
  {
    command: 'definitions.variables.list',
    happy: async () => {
      const ws = await workspace();
      await seed('definitions.variables.set', {
        scope: 'workspace',
        workspaceId: ws.id,
        name: 'API_KEY',
        value: 'v',
      });
      return {
        token: tokens.member,
        input: { scope: 'workspace', workspaceId: ws.id },
        verify: (out) =>
          expect((out.items as { name: string; set: boolean }[]).map((v) => [v.name, v.set])).toEqual([
            ['API_KEY', true],
          ]),
      };
    },
    refusals: [
      refusal('a workspace scope without a workspaceId', 400, 'validation_failed', async () => ({
        token: tokens.member,
        input: { scope: 'workspace' },
      })),
      refusal('an agent token (no definitions:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.agent,
        input: { scope: 'tenant' },
      })),
    ],
  },
  {
    command: 'definitions.overlays.set',
    happy: async () => {
      const ws = await workspace();
      await seed('definitions.sources.put', {
        tier: 'project',
        workspaceId: ws.id,
        document: serversDocument(),
      });
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, serverName: 'github', scope: 'workspace', reason: 'rotating' },
        verify: (out) =>
          expect(out).toEqual({
            workspaceId: ws.id,
            scope: 'workspace',
            serverName: 'github',
            disabled: true,
            reason: 'rotating',
          }),
      };
    },
    refusals: [
      refusal('a server the effective view does not list', 400, 'validation_failed', async () => {
        const ws = await workspace();
        await seed('definitions.sources.put', {
          tier: 'project',
          workspaceId: ws.id,
          document: serversDocument(),
        });
        return { token: tokens.admin, input: { workspaceId: ws.id, serverName: 'nope', scope: 'workspace' } };
      }),
      refusal('a member who maintains no such workspace', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { workspaceId: (await workspace()).id, serverName: 'github', scope: 'workspace' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId, serverName: 'github', scope: 'workspace' },
      })),
    ],
  },
  {
    command: 'definitions.overlays.clear',
    happy: async () => {
      const ws = await workspace();
      await seed('definitions.sources.put', {
        tier: 'project',
        workspaceId: ws.id,
        document: serversDocument(),
      });
      await seed('definitions.overlays.set', {
        workspaceId: ws.id,
        serverName: 'github',
        scope: 'workspace',
      });
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, serverName: 'github', scope: 'workspace' },
        verify: async (out) => {
          expect(out).toMatchObject({
            workspaceId: ws.id,
            serverName: 'github',
            disabled: false,
            reason: null,
          });
          const view = await seed('definitions.effective', { workspaceId: ws.id, view: 'workspace' });
          const github = (view.entries as { name: string; status: string }[]).find(
            (e) => e.name === 'github',
          );
          expect(github?.status).toBe('resolved');
        },
      };
    },
    refusals: [
      refusal('a member who maintains no such workspace', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { workspaceId: (await workspace()).id, serverName: 'github', scope: 'workspace' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId, serverName: 'github', scope: 'workspace' },
      })),
    ],
  },
  {
    command: 'definitions.effective',
    happy: async () => {
      const ws = await workspace();
      await seed('definitions.sources.put', {
        tier: 'project',
        workspaceId: ws.id,
        document: serversDocument(),
      });
      return {
        token: tokens.member,
        input: { workspaceId: ws.id, view: 'principal' },
        verify: (out) => {
          expect(out).toMatchObject({ workspaceId: ws.id, view: 'principal' });
          const entries = out.entries as { name: string; status: string; source: { origin: string } }[];
          // Other cases' managed sources are tenant-wide and show up too; this workspace's own servers are these.
          const own = entries.filter((e) => !e.source.origin.startsWith('managed:'));
          expect(own.map((e) => [e.name, e.status, e.source.origin]).sort()).toEqual([
            ['github', 'resolved', `project:${ws.id}`],
            ['tools', 'resolved', `project:${ws.id}`],
          ]);
          expect(JSON.stringify(out)).not.toContain('literal-key');
        },
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { workspaceId: globexWorkspaceId },
      })),
      refusal('an agent token (no definitions:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.agent,
        input: { workspaceId: (await workspace()).id },
      })),
    ],
  },
  {
    command: 'hostPolicy.get',
    happy: async () => ({
      token: tokens.admin,
      input: {},
      verify: (out) => {
        // The harness runs with the default pool: open to every tenant, nothing local allowed.
        expect(out.pools).toEqual([
          {
            pool: 'default',
            stdio: false,
            headerHelpers: false,
            allowedRoots: [],
            commandCeiling: [],
            childEnvKeys: [...DEFAULT_CHILD_ENV_KEYS],
            privateRangesTenantsMayOptInto: [],
          },
        ]);
        expect(out.policy).toMatchObject({ stdioCommands: [], privateCidrs: [] });
        expect(JSON.stringify(out)).not.toMatch(/egressDenylist|runAs|allowInsecureLoopback/);
      },
    }),
    refusals: [
      refusal('a member (no tenant:write)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
    ],
  },
  {
    command: 'hostPolicy.put',
    happy: async (surface) => {
      const origin = `https://${surface}-${randomUUID().slice(0, 6)}.collector.example.com`;
      return {
        token: tokens.owner,
        input: {
          stdioCommands: [],
          headerHelpers: [],
          privateCidrs: [],
          traceContextOrigins: [origin],
          fourEyes: true,
        },
        verify: async (out) => {
          expect(out.policy).toMatchObject({ traceContextOrigins: [origin], fourEyes: true });
          const read = await callCommand('rest', h.app, 'hostPolicy.get', {}, tokens.admin);
          expectSuccess(read);
          expect(read.output).toMatchObject({ policy: { traceContextOrigins: [origin], fourEyes: true } });
        },
      };
    },
    refusals: [
      refusal('a stdio command on a pool without stdio', 400, 'outside_operator_ceiling', async () => ({
        token: tokens.owner,
        input: {
          stdioCommands: [['npx', '-y', '@modelcontextprotocol/server-everything']],
          headerHelpers: [],
          privateCidrs: [],
          traceContextOrigins: [],
          fourEyes: false,
        },
      })),
      refusal('an env name no pool allows', 400, 'outside_operator_ceiling', async () => ({
        token: tokens.owner,
        input: {
          stdioCommands: [],
          headerHelpers: [],
          privateCidrs: [],
          traceContextOrigins: [],
          fourEyes: false,
          childEnvKeys: ['npm_config_node_options'],
        },
      })),
      refusal('a metadata range', 400, 'outside_operator_ceiling', async () => ({
        token: tokens.admin,
        input: {
          stdioCommands: [],
          headerHelpers: [],
          privateCidrs: ['169.254.169.254/32'],
          traceContextOrigins: [],
          fourEyes: false,
        },
      })),
      refusal('a member (no tenant:write)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {
          stdioCommands: [],
          headerHelpers: [],
          privateCidrs: [],
          traceContextOrigins: [],
          fourEyes: true,
        },
      })),
    ],
  },
  {
    command: 'approvals.requests.list',
    happy: async () => {
      const request = await openRequestFor();
      return {
        token: tokens.admin,
        input: { workspaceId: request.workspaceId, serverName: request.serverName },
        verify: (out) =>
          expect(out).toMatchObject({
            items: [{ id: request.id, status: 'open', approvalId: null }],
            nextCursor: null,
          }),
      };
    },
    refusals: [
      refusal('a member (no approvals:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
      refusal('a malformed cursor', 400, 'bad_cursor', async () => ({
        token: tokens.admin,
        input: { cursor: 'AAAA' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId },
      })),
    ],
  },
  {
    command: 'approvals.requests.get',
    happy: async () => {
      const request = await openRequestFor();
      return {
        token: tokens.admin,
        input: { requestId: request.id },
        verify: (out) =>
          expect(out).toMatchObject({
            id: request.id,
            workspaceId: request.workspaceId,
            status: 'open',
            identity: {
              key: request.identityKey,
              serverName: request.serverName,
              source: { tier: 'project' },
            },
            // The owner wrote the source; later events of others re-deciding it may add them too.
            authorUserIds: expect.arrayContaining([owner.id]),
          }),
      };
    },
    refusals: [
      refusal('another tenant’s request', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { requestId: (await openRequestFor('globex')).id },
      })),
      refusal('a malformed id', 400, 'validation_failed', async () => ({
        token: tokens.admin,
        input: { requestId: 'not-a-uuid' },
      })),
    ],
  },
  {
    command: 'approvals.requests.open',
    happy: async () => {
      const server = await freshServer();
      return {
        token: tokens.member,
        input: server,
        verify: (out) =>
          expect(out).toMatchObject({
            workspaceId: server.workspaceId,
            status: 'open',
            identity: {
              serverName: server.serverName,
              source: { tier: 'project', origin: `project:${server.workspaceId}` },
            },
            changes: [],
          }),
      };
    },
    refusals: [
      refusal('a server the view does not list', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { workspaceId: (await approvalPool('acme')).workspaceId, serverName: 'nope' },
      })),
      refusal('a project server in an untrusted workspace', 409, 'not_approvable', async () => {
        const ws = await workspace();
        await seed('definitions.sources.put', {
          tier: 'project',
          workspaceId: ws.id,
          document: serversDocument(),
        });
        return { token: tokens.member, input: { workspaceId: ws.id, serverName: 'github' } };
      }),
      refusal('an agent token (no definitions:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.agent,
        input: await freshServer(),
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { workspaceId: globexWorkspaceId, serverName: 'github' },
      })),
    ],
  },
  {
    command: 'approvals.requests.decide',
    happy: async () => {
      const request = await openRequestFor();
      const expiresAt = new Date(Date.now() + 86_400_000).toISOString();
      const decider = await approver();
      return {
        token: decider.token,
        input: {
          requestId: request.id,
          decision: 'approve',
          seenFingerprint: request.fingerprint,
          seenIdentityKey: request.identityKey,
          expiresAt,
        },
        verify: async (out) => {
          expect(out).toMatchObject({
            requestId: request.id,
            workspaceId: request.workspaceId,
            decision: 'approved',
            decidedBy: decider.id,
            expiresAt,
            identity: { key: request.identityKey },
          });
          expect(await activationStateOf(request.workspaceId, request.serverName)).toBe('approved');
        },
      };
    },
    refusals: [
      refusal('a member (no approvals:decide)', 403, 'forbidden_scope', async () => {
        const request = await openRequestFor();
        return {
          token: tokens.member,
          input: {
            requestId: request.id,
            decision: 'approve',
            seenFingerprint: request.fingerprint,
            seenIdentityKey: request.identityKey,
          },
        };
      }),
      refusal('a fingerprint other than the one there now', 409, 'changed_since_review', async () => {
        const request = await openRequestFor();
        return {
          token: (await approver()).token,
          input: {
            requestId: request.id,
            decision: 'approve',
            seenFingerprint: 'sha256:not-what-is-there',
            seenIdentityKey: request.identityKey,
          },
        };
      }),
      refusal('a denial without a reason', 400, 'validation_failed', async () => {
        const request = await openRequestFor();
        return {
          token: (await approver()).token,
          input: {
            requestId: request.id,
            decision: 'deny',
            seenFingerprint: request.fingerprint,
            seenIdentityKey: request.identityKey,
          },
        };
      }),
      refusal('a request decided already', 409, 'request_not_open', async () => {
        const request = await openRequestFor();
        const decision = {
          requestId: request.id,
          decision: 'deny',
          seenFingerprint: request.fingerprint,
          seenIdentityKey: request.identityKey,
          reason: 'not now',
        };
        const decider = (await approver()).token;
        await seed('approvals.requests.decide', decision, decider);
        return { token: decider, input: decision };
      }),
      refusal('an expiry in the past', 400, 'validation_failed', async () => {
        const request = await openRequestFor();
        return {
          token: (await approver()).token,
          input: {
            requestId: request.id,
            decision: 'approve',
            seenFingerprint: request.fingerprint,
            seenIdentityKey: request.identityKey,
            expiresAt: '2001-01-01T00:00:00Z',
          },
        };
      }),
      refusal('another tenant’s request', 404, 'not_found', async () => {
        const request = await openRequestFor('globex');
        return {
          token: tokens.admin,
          input: {
            requestId: request.id,
            decision: 'approve',
            seenFingerprint: request.fingerprint,
            seenIdentityKey: request.identityKey,
          },
        };
      }),
    ],
  },
  {
    command: 'approvals.list',
    happy: async () => {
      const approval = await approvalFor();
      return {
        token: tokens.admin,
        input: { workspaceId: approval.workspaceId, serverName: approval.serverName, state: 'active' },
        verify: (out) =>
          expect(out).toMatchObject({ items: [{ id: approval.id, decision: 'approved', revokedAt: null }] }),
      };
    },
    refusals: [
      refusal('a member (no approvals:read)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: {},
      })),
      refusal('a malformed cursor', 400, 'bad_cursor', async () => ({
        token: tokens.admin,
        input: { cursor: 'AAAA' },
      })),
    ],
  },
  {
    command: 'approvals.revoke',
    happy: async () => {
      const approval = await approvalFor();
      return {
        token: tokens.owner,
        input: { approvalId: approval.id, reason: 'the contract ended' },
        verify: async (out) => {
          expect(out).toMatchObject({
            id: approval.id,
            decision: 'approved',
            revokedBy: owner.id,
            revokeReason: 'the contract ended',
          });
          expect(await activationStateOf(approval.workspaceId, approval.serverName)).toBe('revoked');
        },
      };
    },
    refusals: [
      refusal('an approver (owners and admins revoke)', 403, 'forbidden', async () => ({
        token: (await approver()).token,
        input: { approvalId: (await approvalFor()).id, reason: 'no' },
      })),
      refusal('no reason', 400, 'validation_failed', async () => ({
        token: tokens.admin,
        input: { approvalId: (await approvalFor()).id },
      })),
      refusal('an approval revoked already', 409, 'already_revoked', async () => {
        const approval = await approvalFor();
        await seed('approvals.revoke', { approvalId: approval.id, reason: 'first' });
        return { token: tokens.admin, input: { approvalId: approval.id, reason: 'second' } };
      }),
      refusal('another tenant’s approval', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { approvalId: (await approvalFor('globex')).id, reason: 'not mine' },
      })),
    ],
  },
  {
    command: 'admission.check',
    happy: async () => {
      const ws = await admissionWorkspace();
      return {
        token: tokens.admin,
        input: { workspaceId: ws.id, serverName: 'tools' },
        verify: (out) => {
          // The harness's default pool allows no stdio; an untrusted workspace does not run project sources.
          expect(out).toMatchObject({
            workspaceId: ws.id,
            serverName: 'tools',
            principalUserId: null,
            found: true,
            transport: 'stdio',
            activation: { state: 'untrusted' },
            destination: { result: 'not_applicable' },
            stdio: [{ pool: 'default', result: 'refused', reason: 'stdio_not_allowed_on_pool' }],
            admissible: false,
          });
          expect(JSON.stringify(out)).not.toContain('literal-key');
        },
      };
    },
    refusals: [
      refusal('a member (no tenant:write)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { workspaceId: (await admissionWorkspace()).id, serverName: 'tools' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { workspaceId: globexWorkspaceId, serverName: 'tools' },
      })),
      refusal('another tenant’s user as principal', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: {
          workspaceId: (await admissionWorkspace()).id,
          serverName: 'tools',
          principalUserId: globexUser.id,
        },
      })),
    ],
  },
  {
    command: 'tokens.introspect',
    happy: async () => {
      const { agent, workspaceId, gateway } = await introspectionSetup();
      return {
        token: gateway,
        input: { token: agent.secret, workspaceId },
        verify: (out) =>
          expect(out).toEqual({
            active: true,
            tokenId: agent.id,
            tenantId: acme.id,
            kind: 'agent',
            userId: null,
            workspaceIds: [workspaceId],
            scopes: ['gateway:use'],
            expiresAt: null,
          }),
      };
    },
    refusals: [
      refusal('a user token (gateways introspect)', 403, 'forbidden_caller', async () => {
        const { agent, workspaceId } = await introspectionSetup();
        return { token: tokens.owner, input: { token: agent.secret, workspaceId } };
      }),
      refusal('a workspace outside the token’s binding', 404, 'not_found', async () => {
        const { agent, gateway } = await introspectionSetup();
        return { token: gateway, input: { token: agent.secret, workspaceId: (await workspace()).id } };
      }),
      refusal('another tenant’s workspace', 404, 'not_found', async () => {
        const { gateway } = await introspectionSetup();
        return { token: gateway, input: { token: tokens.owner, workspaceId: globexWorkspaceId } };
      }),
    ],
  },
  {
    command: 'leases.issue',
    happy: async () => {
      const { workspaceId, worker } = await leaseSetup();
      return {
        token: worker,
        input: { workspaceId, serverName: 'leased' },
        verify: (out) =>
          expect(out).toMatchObject({
            workspaceId,
            serverName: 'leased',
            pool: 'default',
            transport: { v: 1, transport: { kind: 'http', addresses: ['93.184.216.34'] } },
          }),
      };
    },
    refusals: [
      refusal('a user token (workers and gateways lease)', 403, 'forbidden_caller', async () => ({
        token: tokens.owner,
        input: { workspaceId: (await leaseSetup()).workspaceId, serverName: 'leased' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: (await leaseSetup()).worker,
        input: { workspaceId: globexWorkspaceId, serverName: 'leased' },
      })),
    ],
  },
  {
    command: 'leases.renew',
    happy: async () => {
      const held = await freshLease();
      return {
        token: held.worker,
        input: { leaseId: held.id },
        verify: (out) => expect(out).toMatchObject({ id: held.id, releasedAt: null }),
      };
    },
    refusals: [
      refusal('a lease this token does not hold', 404, 'not_found', async () => ({
        token: (await leaseSetup()).worker,
        input: { leaseId: randomUUID() },
      })),
    ],
  },
  {
    command: 'leases.release',
    happy: async () => {
      const held = await freshLease();
      return {
        token: held.worker,
        input: { leaseId: held.id },
        verify: (out) => expect(out).toMatchObject({ id: held.id, releasedAt: expect.any(String) }),
      };
    },
    refusals: [
      refusal('no credential', 401, 'unauthenticated', async () => ({ input: { leaseId: randomUUID() } })),
    ],
  },
  {
    command: 'catalog.refresh',
    happy: async () => {
      const { workspaceId } = await leaseSetup();
      return {
        token: tokens.owner,
        input: { workspaceId, serverName: 'leased' },
        // The decision's own trigger may have enqueued the job already: a refresh then collapses into it.
        verify: (out) =>
          expect(out).toMatchObject({
            outcome: expect.stringMatching(/^(enqueued|collapsed)$/),
            workspaceId,
            serverName: 'leased',
            principalUserId: null,
            pool: 'default',
            reason: 'manual',
          }),
      };
    },
    refusals: [
      refusal('a member (owners, admins and approvers refresh)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { workspaceId: (await leaseSetup()).workspaceId, serverName: 'leased' },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: globexWorkspaceId, serverName: 'leased' },
      })),
      refusal('a person naming a lease (lease holders only)', 400, 'validation_failed', async () => ({
        token: tokens.owner,
        input: { workspaceId: (await leaseSetup()).workspaceId, serverName: 'leased', leaseId: randomUUID() },
      })),
      refusal('a server not approved', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: (await leaseSetup()).workspaceId, serverName: 'nosuchserver' },
      })),
    ],
  },
  {
    command: 'gateway.activity',
    happy: async () => {
      const { workspaceId } = await leaseSetup();
      return {
        token: tokens.member,
        input: { workspaceId },
        verify: (out) => {
          // No gateway has served this workspace: live numbers are zero, the window is there.
          expect(out).toMatchObject({
            workspaceId,
            liveSessions: 0,
            calls: { total: 0, byOutcome: [] },
            refusals: { total: 0, byReason: [] },
          });
          expect((out.minutes as unknown[]).length).toBe(out.windowMinutes);
        },
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { workspaceId: globexWorkspaceId },
      })),
      refusal('an agent token (people only)', 403, 'forbidden_caller', async () => ({
        token: tokens.agent,
        input: { workspaceId: (await leaseSetup()).workspaceId },
      })),
    ],
  },
  {
    command: 'servers.status',
    happy: async () => {
      const held = await freshLease();
      const { workspaceId } = await leaseSetup();
      return {
        token: tokens.member,
        input: { workspaceId, serverName: 'leased', limit: 200 },
        verify: (out) => {
          expect(out).toMatchObject({ workspaceId, serverName: 'leased', probes: [] });
          const holders = (out.leaseHolders as { items: { leaseId: string; token: { kind: string } }[] })
            .items;
          expect(holders.find((holder) => holder.leaseId === held.id)).toMatchObject({
            token: { kind: 'worker', name: 'test worker' },
            pool: 'default',
            principal: null,
          });
          // Never the admitted transport: that is the holder's alone.
          expect(JSON.stringify(out)).not.toContain('93.184.216.34');
        },
      };
    },
    refusals: [
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { workspaceId: globexWorkspaceId, serverName: 'leased' },
      })),
      refusal('an agent token (people only)', 403, 'forbidden_caller', async () => ({
        token: tokens.agent,
        input: { workspaceId: (await leaseSetup()).workspaceId, serverName: 'leased' },
      })),
      refusal('a cursor it did not hand out', 400, 'bad_cursor', async () => ({
        token: tokens.member,
        input: { workspaceId: (await leaseSetup()).workspaceId, serverName: 'leased', cursor: 'nope' },
      })),
    ],
  },
  {
    command: 'catalog.get',
    happy: async () => {
      const { workspaceId } = await leaseSetup();
      return {
        token: tokens.member,
        input: { workspaceId },
        verify: (out) => {
          // The member's own catalog: the approved server, not discovered by any worker in this spec.
          expect(out).toMatchObject({ v: 1, workspaceId, principalUserId: member.id, complete: false });
          const servers = out.servers as { name: string; state: string; source: { origin: string } }[];
          expect(servers.find((s) => s.name === 'leased')).toMatchObject({
            state: 'pending_discovery',
            source: { origin: `project:${workspaceId}` },
          });
          expect(out.document).toMatchObject({ v: 1, servers: [] });
        },
      };
    },
    refusals: [
      refusal('a person naming another principal', 403, 'forbidden', async () => ({
        token: tokens.member,
        input: { workspaceId: (await leaseSetup()).workspaceId, principal: owner.id },
      })),
      refusal('an agent token outside its workspace', 404, 'not_found', async () => ({
        token: tokens.agent,
        input: { workspaceId: (await leaseSetup()).workspaceId },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.member,
        input: { workspaceId: globexWorkspaceId },
      })),
    ],
  },
  {
    command: 'oauth.serviceCredentials.list',
    happy: async () => {
      const workspaceId = (await workspace()).id;
      const id = await serviceCredentialIn(workspaceId);
      return {
        token: tokens.admin,
        input: { workspaceId },
        verify: (out) =>
          expect(out).toEqual({
            items: [
              expect.objectContaining({
                id,
                subject: 'workspace',
                workspaceId,
                state: 'needs_sign_in',
                accessTokenExpiresAt: null,
              }),
            ],
            nextCursor: null,
          }),
      };
    },
    refusals: [
      refusal('a member (owners and admins)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { workspaceId: (await workspace()).id },
      })),
      refusal('an agent token', 403, 'forbidden_caller', async () => ({
        token: tokens.agent,
        input: { workspaceId: (await workspace()).id },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: globexWorkspaceId },
      })),
    ],
  },
  {
    command: 'oauth.serviceCredential.signOut',
    happy: async () => {
      const workspaceId = (await workspace()).id;
      const credentialId = await serviceCredentialIn(workspaceId);
      return {
        token: tokens.admin,
        input: { workspaceId, credentialId },
        verify: async (out) => {
          // No token to revoke and no revocation endpoint: signed out here, the issuer not asked.
          expect(out).toEqual({ id: credentialId, state: 'signed_out', revokedAtIssuer: false });
          const left = await h.db.withTenant(acme.id, (tx) =>
            tx.oAuthCredential.count({ where: { id: credentialId } }),
          );
          expect(left).toBe(0);
        },
      };
    },
    refusals: [
      refusal('a member (owners and admins)', 403, 'forbidden_scope', async () => {
        const workspaceId = (await workspace()).id;
        return {
          token: tokens.member,
          input: { workspaceId, credentialId: await serviceCredentialIn(workspaceId) },
        };
      }),
      refusal('another workspace’s service credential', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: {
          workspaceId: (await workspace()).id,
          credentialId: await serviceCredentialIn((await workspace()).id),
        },
      })),
      refusal('another tenant’s workspace', 404, 'not_found', async () => ({
        token: tokens.owner,
        input: { workspaceId: globexWorkspaceId, credentialId: randomUUID() },
      })),
    ],
  },
  {
    command: 'revocations.list',
    happy: async () => {
      const revoked = await mintTestToken(h.db, acme, owner, { kind: 'user' });
      await seed('tokens.revoke', { tokenId: revoked.id }, tokens.owner);
      return {
        token: tokens.owner,
        input: { since: 0, limit: 1000 },
        verify: (out) =>
          expect(out).toMatchObject({
            stream: 'tenant',
            // Whole events on both surfaces (GraphQL as JSON objects).
            events: expect.arrayContaining([
              expect.objectContaining({
                kind: 'token_revoked',
                tenantId: acme.id,
                subject: { tokenIds: [revoked.id] },
              }),
            ]),
          }),
      };
    },
    refusals: [
      refusal('a negative since', 400, 'validation_failed', async () => ({
        token: tokens.owner,
        input: { since: -1 },
      })),
      refusal('a since past the head', 400, 'bad_cursor', async () => ({
        token: tokens.owner,
        // Within GraphQL's Int (32 bits), past any head of this run.
        input: { since: 2_000_000_000 },
      })),
      refusal('a member (owners and admins read the ledger)', 403, 'forbidden_scope', async () => ({
        token: tokens.member,
        input: { since: 0 },
      })),
      refusal('an agent token', 403, 'forbidden_caller', async () => ({
        token: tokens.agent,
        input: { since: 0 },
      })),
    ],
  },
];

const SURFACES: readonly Surface[] = ['rest', 'graphql'];
const REPOSITORY_ROOT = join(__dirname, '..', '..', '..', '..');

/**
 * Commands whose happy path needs a real authorization server (oidc-provider) or a worker's live lease, and is
 * therefore proven end to end in their own spec; the cross-tenant harness still covers their routes. Each
 * named spec must exist and name the command, so an entry cannot outlive its coverage.
 */
const COVERED_BY_OWN_SPEC: Readonly<Record<string, string>> = {
  'catalog.submit': 'apps/api/src/catalog/catalog-snapshot.int-spec.ts',
  'catalog.reportFailure': 'apps/api/src/catalog/discovery-failure.int-spec.ts',
  'probes.submit': 'apps/worker/src/probes/probe.int-spec.ts',
  'oauth.signIn.start': 'apps/api/src/oauth/oauth-commands.int-spec.ts',
  'oauth.signIn.complete': 'apps/api/src/oauth/oauth-commands.int-spec.ts',
  'oauth.credentials.list': 'apps/api/src/oauth/oauth-commands.int-spec.ts',
  'oauth.signOut': 'apps/api/src/oauth/oauth-commands.int-spec.ts',
  'oauth.serviceCredential.choose': 'apps/api/src/oauth/oauth-leases.int-spec.ts',
};

it('has a happy path and a refusal for every command in the registry', () => {
  const covered = [...CASES.map((c) => c.command), ...Object.keys(COVERED_BY_OWN_SPEC)];
  expect(covered.sort()).toEqual(COMMANDS.map((c) => c.name).sort());
  for (const [command, spec] of Object.entries(COVERED_BY_OWN_SPEC)) {
    expect(readFileSync(join(REPOSITORY_ROOT, spec), 'utf8')).toContain(command);
  }
  for (const c of CASES) expect(c.refusals.length).toBeGreaterThan(0);
});

function expectSuccess(result: CallResult): asserts result is Extract<CallResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected success, got ${result.status} ${JSON.stringify(result.body)}`);
}

describe.each(SURFACES)('over %s', (surface) => {
  it.each(CASES.map((c) => [c.command, c] as const))('%s succeeds', async (_name, c) => {
    const prepared = await c.happy(surface);
    const result = await callCommand(surface, h.app, c.command, prepared.input, prepared.token);
    expectSuccess(result);
    const command = commandNamed(c.command);
    if (surface === 'rest') expect(result.status).toBe(command.http.successStatus ?? 200);
    // What came back is exactly what the registry declares.
    expect(command.output.safeParse(result.output).success).toBe(true);
    await prepared.verify(result.output);
  });

  const refusals = CASES.flatMap((c) => c.refusals.map((r) => [c.command, r.label, r] as const));
  it.each(refusals)('%s refuses %s', async (name, _label, r) => {
    const prepared = await r.setup(surface);
    const result = await callCommand(surface, h.app, name, prepared.input, prepared.token);
    expect(result).toMatchObject({ ok: false, status: r.status, code: r.code });
    if (surface === 'rest') expect(result.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
