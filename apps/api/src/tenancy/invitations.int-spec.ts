import { createHash, randomUUID } from 'node:crypto';
import { TEST_DATABASE_TIMEOUT_MS, type TestTenant, type TestUser } from '@gatehouse/testing';
import { Client } from 'pg';
import { createUser } from '../auth/create-user';
import { TEST_HASHER } from '../auth/testing/identity-harness';
import { callCommand, type CallResult, type Surface } from '../commands/testing/command-clients';
import {
  TEST_PASSWORD,
  bearer,
  createMember,
  createSurfacesHarness,
  createTestTenant,
  mintTestToken,
  type SurfacesHarness,
} from '../commands/testing/surfaces-harness';

// Invitations (decision 0030) through the real stack: the generated REST and GraphQL surfaces, the
// invitation link routes, real Postgres (row-level security, the definer lookup) and Redis (the throttle).
// "Adding a member" was an account oracle that enrolled people without consent: inviting must answer the same
// whatever the address, and only the invited person, proving they are that address, joins.

jest.setTimeout(90_000);

const SYSTEM = { type: 'system', id: null, tokenKind: null } as const;

let h: SurfacesHarness;
let acme: TestTenant;
let globex: TestTenant;
let acmeOwner: TestUser;
let acmeAdmin: TestUser;
let acmeMember: TestUser;
let globexUser: TestUser;
const tokens = { owner: '', admin: '', member: '', globexUser: '' };
/** Every secret any test was handed: none may ever come back out of the API, the audit trail or the rows. */
const secretsSeen: string[] = [];
const bodiesSeen: string[] = [];
/** Every line the API logged during the file, at debug level. */
const logLines: string[] = [];

beforeAll(async () => {
  h = await createSurfacesHarness({ logLines });
  acme = await createTestTenant(h.db, { slug: `acme-${randomUUID().slice(0, 6)}` });
  globex = await createTestTenant(h.db, { slug: `globex-${randomUUID().slice(0, 6)}` });
  acmeOwner = await createMember(h.db, acme, 'owner');
  acmeAdmin = await createMember(h.db, acme, 'admin');
  acmeMember = await createMember(h.db, acme, 'member');
  globexUser = await createMember(h.db, globex, 'member');
  tokens.owner = (await mintTestToken(h.db, acme, acmeOwner, { kind: 'user' })).secret;
  tokens.admin = (await mintTestToken(h.db, acme, acmeAdmin, { kind: 'user' })).secret;
  tokens.member = (await mintTestToken(h.db, acme, acmeMember, { kind: 'user' })).secret;
  tokens.globexUser = (await mintTestToken(h.db, globex, globexUser, { kind: 'user' })).secret;
}, TEST_DATABASE_TIMEOUT_MS);

afterAll(async () => {
  await h?.close();
}, TEST_DATABASE_TIMEOUT_MS);

function unique(label: string): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`;
}

async function call(
  surface: Surface,
  name: string,
  input: Record<string, unknown>,
  token: string | undefined,
): Promise<CallResult> {
  const result = await callCommand(surface, h.app, name, input, token);
  bodiesSeen.push(JSON.stringify(result.ok ? result.output : result.body));
  return result;
}

async function invite(
  email: string,
  role = 'member',
  token = tokens.admin,
  surface: Surface = 'rest',
): Promise<{ id: string; secret: string }> {
  const created = await call(surface, 'invitations.create', { email, role }, token);
  if (!created.ok) throw new Error(`invite refused: ${JSON.stringify(created.body)}`);
  const secret = created.output.secret as string;
  secretsSeen.push(secret);
  return { id: (created.output.invitation as { id: string }).id, secret };
}

async function link(path: 'preview' | 'accept', body: Record<string, unknown>) {
  const response = await h.app.inject({
    method: 'POST',
    url: `/v1/auth/invitations/${path}`,
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  bodiesSeen.push(response.body);
  return {
    status: response.statusCode,
    body: JSON.parse(response.body) as Record<string, unknown>,
    response,
  };
}

async function roleIn(tenant: TestTenant, userId: string): Promise<string | null> {
  const row = await h.db.withTenant(tenant.id, (tx) =>
    tx.membership.findUnique({ where: { tenantId_userId: { tenantId: tenant.id, userId } } }),
  );
  return row?.role ?? null;
}

async function outsiderAccount(): Promise<{ id: string; email: string }> {
  const email = unique('outsider');
  const created = await createUser(h.db, TEST_HASHER, {
    email,
    displayName: 'Outsider',
    password: TEST_PASSWORD,
    actor: SYSTEM,
  });
  if (!created.ok) throw new Error(created.reason);
  return { id: created.user.id, email };
}

async function signIn(email: string, tenant: TestTenant): Promise<Record<string, string>> {
  const login = await h.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    payload: { email, password: TEST_PASSWORD, tenant: tenant.slug },
  });
  expect(login.statusCode).toBe(200);
  const cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  return { cookie, 'x-csrf-token': (JSON.parse(login.body) as { csrfToken: string }).csrfToken };
}

/** The invitation's row as the superuser sees it (no row-level security) (to age it, or to look for the secret). */
async function asOwner<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: h.testDb.adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

describe('no account oracle, no enrolment without consent', () => {
  it('POST /v1/members (add by email) is gone', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/members',
      headers: { ...bearer(tokens.admin), 'content-type': 'application/json' },
      payload: JSON.stringify({ email: globexUser.email, role: 'member' }),
    });
    expect(response.statusCode).toBe(404);
    expect(await roleIn(acme, globexUser.id)).toBeNull();
  });

  it.each<Surface>(['rest', 'graphql'])(
    'answers the same for an address with an account elsewhere, with no tenant, and with none (%s)',
    async (surface) => {
      const outsider = await outsiderAccount();
      const shapes = [];
      for (const email of [globexUser.email, outsider.email, unique('nobody')]) {
        const created = await call(surface, 'invitations.create', { email, role: 'approver' }, tokens.admin);
        expect(created.ok).toBe(true);
        if (!created.ok) continue;
        secretsSeen.push(created.output.secret as string);
        const invitation = created.output.invitation as Record<string, unknown>;
        expect(invitation).toMatchObject({
          email,
          role: 'approver',
          status: 'pending',
          createdBy: acmeAdmin.id,
        });
        const text = JSON.stringify(created.output);
        expect(text).not.toContain(globexUser.id);
        expect(text).not.toContain(outsider.id);
        shapes.push({
          status: created.status,
          keys: Object.keys(created.output).sort(),
          invitationKeys: Object.keys(invitation).sort(),
          acceptedBy: invitation.acceptedBy,
        });
      }
      expect(shapes[1]).toEqual(shapes[0]);
      expect(shapes[2]).toEqual(shapes[0]);
      // Nobody became a member by being invited.
      expect(await roleIn(acme, globexUser.id)).toBeNull();
      expect(await roleIn(acme, outsider.id)).toBeNull();
    },
  );

  it('sends the secret once, with Cache-Control: no-store, and keeps only its sha256', async () => {
    const created = await call(
      'rest',
      'invitations.create',
      { email: unique('once'), role: 'member' },
      tokens.admin,
    );
    if (!created.ok) throw new Error('invite failed');
    const secret = created.output.secret as string;
    secretsSeen.push(secret);
    expect(secret).toMatch(/^ghi_[0-9A-Za-z]{43}$/);
    expect(String(created.headers['cache-control'])).toContain('no-store');
    const id = (created.output.invitation as { id: string }).id;
    const stored = await asOwner((c) =>
      c.query<{ secret_hash: Buffer }>('SELECT secret_hash FROM invitations WHERE id = $1', [id]),
    );
    expect(stored.rows[0]?.secret_hash.equals(createHash('sha256').update(secret).digest())).toBe(true);
  });
});

describe('who may invite', () => {
  it('refuses an admin inviting an owner, and a member inviting at all', async () => {
    const asAdmin = await call(
      'rest',
      'invitations.create',
      { email: unique('o'), role: 'owner' },
      tokens.admin,
    );
    expect(asAdmin).toMatchObject({ ok: false, status: 403, code: 'forbidden' });
    const asMember = await call(
      'graphql',
      'invitations.create',
      { email: unique('m'), role: 'member' },
      tokens.member,
    );
    expect(asMember).toMatchObject({ ok: false, status: 403, code: 'forbidden_scope' });
    const list = await call('rest', 'invitations.list', {}, tokens.member);
    expect(list).toMatchObject({ ok: false, status: 403, code: 'forbidden_scope' });
  });

  it('refuses an address that is already a member here (this tenant only)', async () => {
    const created = await call(
      'rest',
      'invitations.create',
      { email: acmeMember.email.toUpperCase(), role: 'admin' },
      tokens.admin,
    );
    expect(created).toMatchObject({ ok: false, status: 409, code: 'conflict' });
  });

  it('lets an owner invite an owner, and that owner invitation dies with the inviter’s ownership', async () => {
    const secondOwner = await createMember(h.db, acme, 'owner');
    const secondOwnerToken = (await mintTestToken(h.db, acme, secondOwner, { kind: 'user' })).secret;
    const kept = await outsiderAccount();
    const dropped = await outsiderAccount();
    const keptInvite = await invite(kept.email, 'owner', tokens.owner);
    const droppedInvite = await invite(dropped.email, 'owner', secondOwnerToken);
    const demoted = await call(
      'rest',
      'members.changeRole',
      { userId: secondOwner.id, role: 'admin' },
      tokens.owner,
    );
    expect(demoted.ok).toBe(true);

    const accepted = await link('accept', { secret: keptInvite.secret, password: TEST_PASSWORD });
    expect(accepted.status).toBe(201);
    expect(await roleIn(acme, kept.id)).toBe('owner');
    const refused = await link('accept', { secret: droppedInvite.secret, password: TEST_PASSWORD });
    expect(refused).toMatchObject({ status: 404, body: { code: 'not_found' } });
    expect(await roleIn(acme, dropped.id)).toBeNull();
  });

  it('any invitation dies with its inviter’s right to invite: a removed or demoted admin’s links stop working', async () => {
    const removedAdmin = await createMember(h.db, acme, 'admin');
    const demotedAdmin = await createMember(h.db, acme, 'admin');
    const removedToken = (await mintTestToken(h.db, acme, removedAdmin, { kind: 'user' })).secret;
    const demotedToken = (await mintTestToken(h.db, acme, demotedAdmin, { kind: 'user' })).secret;
    // An admin's own second address, invited as admin before the admin is removed: no way back in.
    const alt = await outsiderAccount();
    const altInvite = await invite(alt.email, 'admin', removedToken);
    const other = await outsiderAccount();
    const otherInvite = await invite(other.email, 'member', demotedToken);
    const removed = await call('rest', 'members.remove', { userId: removedAdmin.id }, tokens.owner);
    expect(removed.ok).toBe(true);
    const demoted = await call(
      'rest',
      'members.changeRole',
      { userId: demotedAdmin.id, role: 'member' },
      tokens.owner,
    );
    expect(demoted.ok).toBe(true);

    for (const [secret, person] of [
      [altInvite.secret, alt],
      [otherInvite.secret, other],
    ] as const) {
      const refused = await link('accept', { secret, password: TEST_PASSWORD });
      expect(refused).toMatchObject({ status: 404, body: { code: 'not_found' } });
      expect(await roleIn(acme, person.id)).toBeNull();
    }
  });
});

describe('accepting, bound to the invited address', () => {
  it('a signed-in person of another tenant accepts with their session; the link then is spent', async () => {
    const person = await createMember(h.db, globex, 'member');
    const { id, secret } = await invite(person.email.toUpperCase(), 'approver');
    const session = await signIn(person.email, globex);
    const accepted = await h.app.inject({
      method: 'POST',
      url: '/v1/invitations/accept',
      headers: { ...session, 'content-type': 'application/json' },
      payload: JSON.stringify({ secret }),
    });
    bodiesSeen.push(accepted.body);
    expect(accepted.statusCode).toBe(201);
    expect(JSON.parse(accepted.body)).toMatchObject({
      tenant: { id: acme.id, slug: acme.slug, name: acme.name },
      role: 'approver',
    });
    expect(await roleIn(acme, person.id)).toBe('approver');
    expect(await roleIn(globex, person.id)).toBe('member');
    // They can now sign in to the inviting tenant.
    await signIn(person.email, acme);

    const again = await call('graphql', 'invitations.accept', { secret }, tokens.globexUser);
    expect(again).toMatchObject({ ok: false, code: 'not_found' });
    const all = await call('rest', 'invitations.list', { status: 'all', limit: 200 }, tokens.admin);
    if (!all.ok) throw new Error('list failed');
    expect((all.output.items as { id: string }[]).find((i) => i.id === id)).toMatchObject({
      status: 'accepted',
      acceptedBy: person.id,
    });
    const events = await h.db.withTenant(acme.id, (tx) =>
      tx.auditEvent.findMany({ where: { targetId: id }, orderBy: { seq: 'asc' } }),
    );
    expect(events.map((e) => [e.action, e.actorId])).toEqual([
      ['invitations.create', acmeAdmin.id],
      ['invitations.accept', person.id],
    ]);
  });

  it('refuses anyone else signed in, with the same 404 as an unknown link', async () => {
    const { secret } = await invite(unique('someone-else'));
    for (const surface of ['rest', 'graphql'] as const) {
      const wrongPerson = await call(surface, 'invitations.accept', { secret }, tokens.globexUser);
      expect(wrongPerson).toMatchObject({ ok: false, status: 404, code: 'not_found' });
      const unknown = await call(
        surface,
        'invitations.accept',
        { secret: `ghi_${'A'.repeat(43)}` },
        tokens.globexUser,
      );
      expect(unknown).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    }
    expect(await roleIn(acme, globexUser.id)).toBeNull();
    const unauthenticated = await call('rest', 'invitations.accept', { secret }, undefined);
    expect(unauthenticated).toMatchObject({ ok: false, status: 401 });
  });

  it('refuses someone who became a member meanwhile (409) and leaves the invitation pending', async () => {
    const person = await outsiderAccount();
    const { id, secret } = await invite(person.email);
    await h.db.withTenant(acme.id, (tx) =>
      tx.membership.create({
        data: { id: randomUUID(), tenantId: acme.id, userId: person.id, role: 'member' },
      }),
    );
    const accepted = await link('accept', { secret, password: TEST_PASSWORD });
    expect(accepted).toMatchObject({ status: 409, body: { code: 'conflict' } });
    const row = await h.db.withTenant(acme.id, (tx) => tx.invitation.findUnique({ where: { id } }));
    expect(row?.acceptedAt).toBeNull();
  });

  it('through the link: an account without any tenant signs in with its password and joins', async () => {
    const person = await outsiderAccount();
    const { secret } = await invite(person.email, 'member');
    const preview = await link('preview', { secret });
    expect(preview).toMatchObject({
      status: 200,
      body: { tenant: { slug: acme.slug, name: acme.name }, email: person.email, role: 'member' },
    });
    const wrong = await link('accept', { secret, password: 'not the password at all' });
    expect(wrong).toMatchObject({ status: 401, body: { code: 'unauthenticated' } });
    const accepted = await link('accept', { secret, password: TEST_PASSWORD });
    expect(accepted).toMatchObject({ status: 201, body: { tenant: { slug: acme.slug }, role: 'member' } });
    expect(await roleIn(acme, person.id)).toBe('member');
    await signIn(person.email, acme);
    expect((await link('preview', { secret })).status).toBe(404);
  });

  it('through the link: creates the account of an address that has none, and only with a display name', async () => {
    const email = unique('newcomer');
    const { secret } = await invite(email, 'approver');
    // Without a display name, "no account" answers exactly like "wrong password" for an existing one.
    const existing = await outsiderAccount();
    const other = await invite(existing.email);
    const noAccount = await link('accept', { secret, password: TEST_PASSWORD });
    const wrongPassword = await link('accept', { secret: other.secret, password: 'wrong password here' });
    expect(noAccount.status).toBe(401);
    expect(wrongPassword.status).toBe(401);
    expect(noAccount.body).toEqual(wrongPassword.body);

    const created = await link('accept', { secret, password: TEST_PASSWORD, displayName: 'New Comer' });
    expect(created).toMatchObject({ status: 201, body: { email, role: 'approver' } });
    const session = await signIn(email, acme);
    const me = await h.app.inject({ method: 'GET', url: '/v1/me', headers: session });
    expect(JSON.parse(me.body)).toMatchObject({ email, role: 'approver', tenantId: acme.id });
  });
});

describe('expiry, revocation, listing', () => {
  it('an expired invitation is unusable and listed as expired, not pending', async () => {
    const person = await outsiderAccount();
    const { id, secret } = await invite(person.email);
    await asOwner((c) =>
      c.query("UPDATE invitations SET expires_at = now() - interval '1 minute' WHERE id = $1", [id]),
    );
    expect((await link('preview', { secret })).status).toBe(404);
    expect((await link('accept', { secret, password: TEST_PASSWORD })).status).toBe(404);
    expect(await roleIn(acme, person.id)).toBeNull();
    const pending = await call('rest', 'invitations.list', { limit: 200 }, tokens.admin);
    if (!pending.ok) throw new Error('list failed');
    expect((pending.output.items as { id: string }[]).map((i) => i.id)).not.toContain(id);
    const all = await call('graphql', 'invitations.list', { status: 'all', limit: 200 }, tokens.admin);
    if (!all.ok) throw new Error('list failed');
    expect((all.output.items as { id: string }[]).find((i) => i.id === id)).toMatchObject({
      status: 'expired',
    });
    const revoke = await call('rest', 'invitations.revoke', { invitationId: id }, tokens.admin);
    expect(revoke).toMatchObject({ ok: false, status: 409, code: 'conflict' });
  });

  it('a revoked invitation stops working at once; revoking is audited, idempotence is a 409', async () => {
    const person = await outsiderAccount();
    const { id, secret } = await invite(person.email);
    const revoked = await call('graphql', 'invitations.revoke', { invitationId: id }, tokens.admin);
    expect(revoked).toMatchObject({ ok: true, output: { id, status: 'revoked', revokedBy: acmeAdmin.id } });
    expect((await link('accept', { secret, password: TEST_PASSWORD })).status).toBe(404);
    expect(await roleIn(acme, person.id)).toBeNull();
    expect(await call('rest', 'invitations.revoke', { invitationId: id }, tokens.admin)).toMatchObject({
      ok: false,
      status: 409,
    });
    const events = await h.db.withTenant(acme.id, (tx) =>
      tx.auditEvent.findMany({ where: { targetId: id, action: 'invitations.revoke' } }),
    );
    expect(events).toHaveLength(1);
  });

  it('a new invitation of the same address supersedes the pending one', async () => {
    const email = unique('twice');
    const first = await invite(email);
    const second = await invite(email, 'approver');
    expect((await link('preview', { secret: first.secret })).status).toBe(404);
    expect((await link('preview', { secret: second.secret })).body).toMatchObject({ role: 'approver' });
  });

  it('another tenant sees none of these invitations and cannot revoke them', async () => {
    const { id } = await invite(unique('private'));
    const globexOwner = await createMember(h.db, globex, 'owner');
    const globexToken = (await mintTestToken(h.db, globex, globexOwner, { kind: 'user' })).secret;
    for (const surface of ['rest', 'graphql'] as const) {
      const list = await call(surface, 'invitations.list', { status: 'all' }, globexToken);
      expect(list).toMatchObject({ ok: true, output: { items: [] } });
      const revoke = await call(surface, 'invitations.revoke', { invitationId: id }, globexToken);
      expect(revoke).toMatchObject({ ok: false, status: 404, code: 'not_found' });
    }
  });

  it('lists newest first, a page at a time', async () => {
    const tenant = await createTestTenant(h.db);
    const admin = await createMember(h.db, tenant, 'admin');
    const token = (await mintTestToken(h.db, tenant, admin, { kind: 'user' })).secret;
    const emails = [unique('p1'), unique('p2'), unique('p3')];
    for (const email of emails) await invite(email, 'member', token);
    const first = await call('rest', 'invitations.list', { limit: 2 }, token);
    if (!first.ok) throw new Error('list failed');
    expect((first.output.items as { email: string }[]).map((i) => i.email)).toEqual([emails[2], emails[1]]);
    const next = first.output.nextCursor as string;
    expect(typeof next).toBe('string');
    const second = await call('graphql', 'invitations.list', { limit: 2, cursor: next }, token);
    if (!second.ok) throw new Error('list failed');
    expect((second.output.items as { email: string }[]).map((i) => i.email)).toEqual([emails[0]]);
    expect(second.output.nextCursor).toBeNull();
  });
});

describe('secret canary', () => {
  it('never lets an invitation secret out: responses, log lines, audit rows, any stored column', async () => {
    expect(secretsSeen.length).toBeGreaterThan(5);
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of secretsSeen) for (const line of logLines) expect(line).not.toContain(secret);
    const lists = await call('rest', 'invitations.list', { status: 'all', limit: 200 }, tokens.admin);
    expect(lists.ok).toBe(true);
    const bodies = bodiesSeen.filter((b) => !/"secret":"ghi_/.test(b));
    for (const secret of secretsSeen) for (const body of bodies) expect(body).not.toContain(secret);
    await asOwner(async (c) => {
      for (const secret of secretsSeen) {
        const audit = await c.query('SELECT 1 FROM audit_events WHERE data::text LIKE $1', [`%${secret}%`]);
        expect(audit.rowCount).toBe(0);
        const rows = await c.query('SELECT 1 FROM invitations i WHERE row_to_json(i)::text LIKE $1', [
          `%${secret}%`,
        ]);
        expect(rows.rowCount).toBe(0);
      }
    });
  });
});
