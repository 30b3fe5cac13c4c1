import { randomUUID } from 'node:crypto';
import { COMMANDS } from '@gatehouse/commands';
import {
  createTestWorkspace,
  TEST_DATABASE_TIMEOUT_MS,
  type TestTenant,
  type TestUser,
} from '@gatehouse/testing';
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
    command: 'members.add',
    happy: async () => {
      const outsider = await createMember(h.db, globex, 'member');
      return {
        token: tokens.admin,
        input: { email: outsider.email.toUpperCase(), role: 'approver' },
        verify: (out) =>
          expect(out).toMatchObject({ userId: outsider.id, email: outsider.email, role: 'approver' }),
      };
    },
    refusals: [
      refusal('an admin granting owner', 403, 'forbidden', async () => {
        const outsider = await createMember(h.db, globex, 'member');
        return { token: tokens.admin, input: { email: outsider.email, role: 'owner' } };
      }),
      refusal('an unknown account', 404, 'not_found', async () => ({
        token: tokens.admin,
        input: { email: `${unique('nobody')}@example.test`, role: 'member' },
      })),
      refusal('an existing member', 409, 'conflict', async () => ({
        token: tokens.admin,
        input: { email: member.email, role: 'member' },
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
];

const SURFACES: readonly Surface[] = ['rest', 'graphql'];

it('has a happy path and a refusal for every command in the registry', () => {
  expect(CASES.map((c) => c.command).sort()).toEqual(COMMANDS.map((c) => c.name).sort());
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
