import { randomUUID } from 'node:crypto';
import { createLogger } from '@gatehouse/platform';
import { createTestTenant, createTestUser, type TestTenant } from '@gatehouse/testing';
import type { LightMyRequestResponse } from 'fastify';
import { sha256 } from './opaque-secret';
import {
  PROBE_READ,
  PROBE_WRITE,
  TEST_HASHER,
  createIdentityHarness,
  type IdentityHarness,
} from './testing/identity-harness';

// Sign-in, sessions, CSRF and throttling through the real HTTP stack (Fastify inject), the real Postgres
// (a fresh migrated database, app role, RLS) and the real Redis.

// jest.config's per-project testTimeout is not applied to hooks here; creating and migrating a database takes seconds.
jest.setTimeout(60_000);

const PASSWORD = 'correct horse battery staple';
const TRUSTED_PROXY = '10.0.0.5';

let h: IdentityHarness;
let alpha: TestTenant;
let beta: TestTenant;
let gamma: TestTenant;
let ipCounter = 0;
/** Every line the app logged (a real pino logger writing into this buffer). */
const logLines: Record<string, unknown>[] = [];

/** A fresh client address per test, so throttle counters of one test never touch another's. */
function nextIp(): string {
  ipCounter += 1;
  // Documentation ranges, never a real client; a second /24 once the first is used up.
  return ipCounter < 255
    ? `203.0.113.${ipCounter}`
    : `198.18.${Math.floor(ipCounter / 255)}.${ipCounter % 255}`;
}

let ipv6Counter = 0;
/**
 * A fresh IPv6 /64 per call (inside the documentation prefix 2001:db8::/32) and a function giving distinct
 * addresses inside it, spelled compressed for odd and in full for even interface ids.
 */
function nextIpv6Network(): (interfaceId: number) => string {
  ipv6Counter += 1;
  const network = [0x2001, 0xdb8, ipv6Counter, 1];
  return (interfaceId) => {
    const groups = [...network, interfaceId, (interfaceId * 7919) % 0x10000, 0, 1].map((g) => g.toString(16));
    return interfaceId % 2 === 1
      ? `${groups.slice(0, 6).join(':')}::1`
      : groups.map((g) => g.padStart(4, '0')).join(':');
  };
}

async function createMember(tenant: TestTenant, role: 'owner' | 'admin' | 'approver' | 'member' = 'owner') {
  const email = `user-${randomUUID().slice(0, 8)}@example.test`;
  const user = await createTestUser(h.db, tenant.id, {
    email,
    role,
    passwordHash: await TEST_HASHER.hash(PASSWORD),
  });
  return user;
}

function login(body: Record<string, unknown>, remoteAddress: string, headers: Record<string, string> = {}) {
  return h.app.inject({ method: 'POST', url: '/v1/auth/login', payload: body, remoteAddress, headers });
}

function cookieOf(response: LightMyRequestResponse): string {
  const setCookie = response.headers['set-cookie'];
  const header = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  const pair = header?.split(';')[0];
  if (pair === undefined) throw new Error('no session cookie set');
  return pair;
}

async function signIn(email: string, tenant?: string) {
  const response = await login({ email, password: PASSWORD, ...(tenant ? { tenant } : {}) }, nextIp());
  expect(response.statusCode).toBe(200);
  return { cookie: cookieOf(response), csrfToken: response.json<{ csrfToken: string }>().csrfToken };
}

function getSession(cookie: string) {
  return h.app.inject({ method: 'GET', url: '/v1/auth/session', headers: { cookie } });
}

beforeAll(async () => {
  h = await createIdentityHarness({
    trustedProxies: [TRUSTED_PROXY],
    logger: createLogger({
      name: 'auth-test',
      level: 'info',
      destination: {
        write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
      },
    }),
  });
  alpha = await createTestTenant(h.db, { slug: 'alpha' });
  beta = await createTestTenant(h.db, { slug: 'beta' });
  gamma = await createTestTenant(h.db, { slug: 'gamma' });
});

afterAll(async () => {
  await h.close();
});

describe('POST /v1/auth/login', () => {
  it('signs in: an httpOnly Lax cookie holding an opaque id, only its hash stored, csrf token returned once', async () => {
    const user = await createMember(alpha, 'admin');
    const response = await login({ email: `  ${user.email.toUpperCase()} `, password: PASSWORD }, nextIp());

    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toEqual({
      user: { id: user.id, email: user.email, displayName: user.email },
      tenant: { id: alpha.id, slug: 'alpha', name: alpha.name },
      role: 'admin',
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expiresAt: expect.any(String),
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^gh_session=[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax$/);

    const sessionId = cookieOf(response).split('=')[1] as string;
    const rows = await h.db.withTenant(alpha.id, (tx) => tx.session.findMany({ where: { userId: user.id } }));
    expect(rows).toHaveLength(1);
    expect(Buffer.from(rows[0]!.secretHash).equals(sha256(sessionId))).toBe(true);
    expect(Buffer.from(rows[0]!.csrfHash).equals(sha256(body.csrfToken))).toBe(true);

    const audit = await h.db.withTenant(alpha.id, (tx) =>
      tx.auditEvent.findMany({ where: { action: 'auth.login' } }),
    );
    expect(audit.map((e) => e.actorId)).toContain(user.id);
  });

  it('answers an unknown email exactly like a wrong password', async () => {
    const user = await createMember(alpha);
    const wrong = await login({ email: user.email, password: 'not the password at all' }, nextIp());
    const unknown = await login(
      { email: 'nobody-here@example.test', password: 'not the password at all' },
      nextIp(),
    );
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toMatchObject({ code: 'unauthenticated' });
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it('refuses a disabled account like a wrong password', async () => {
    const user = await createMember(alpha);
    await h.asSuperuser('UPDATE users SET disabled_at = now() WHERE id = $1', [user.id]);
    const response = await login({ email: user.email, password: PASSWORD }, nextIp());
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('needs the tenant when the account has several, and refuses a tenant it is not a member of', async () => {
    const user = await createMember(alpha, 'member');
    await h.db.withTenant(beta.id, (tx) =>
      tx.membership.create({
        data: { id: randomUUID(), tenantId: beta.id, userId: user.id, role: 'approver' },
      }),
    );

    const ambiguous = await login({ email: user.email, password: PASSWORD }, nextIp());
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json()).toMatchObject({ code: 'tenant_required', tenants: ['alpha', 'beta'] });

    const wrongTenant = await login({ email: user.email, password: PASSWORD, tenant: gamma.slug }, nextIp());
    expect(wrongTenant.statusCode).toBe(403);
    expect(wrongTenant.json()).toMatchObject({ code: 'tenant_not_member' });
    expect(wrongTenant.headers['set-cookie']).toBeUndefined();

    const chosen = await login({ email: user.email, password: PASSWORD, tenant: 'beta' }, nextIp());
    expect(chosen.statusCode).toBe(200);
    expect(chosen.json()).toMatchObject({ tenant: { slug: 'beta' }, role: 'approver' });
  });

  it('refuses unknown fields and non-JSON bodies with 4xx problems', async () => {
    const extra = await login({ email: 'a@example.test', password: PASSWORD, remember: true }, nextIp());
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toMatchObject({ code: 'validation_failed', errors: [{ path: 'remember' }] });
    expect(extra.payload).not.toContain(PASSWORD);

    const form = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      payload: `email=a%40example.test&password=${encodeURIComponent(PASSWORD)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(415);
    expect(form.headers['content-type']).toContain('application/problem+json');
  });
});

describe('GET /v1/auth/session and expiry', () => {
  it("returns the session's user, tenant, role and scopes", async () => {
    const user = await createMember(alpha, 'approver');
    const { cookie } = await signIn(user.email);
    const response = await getSession(cookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({
      user: { id: user.id, email: user.email },
      tenant: { slug: 'alpha' },
      role: 'approver',
      scopes: expect.arrayContaining(['approvals:decide', 'audit:read']),
    });
    expect(response.json().scopes).not.toContain('members:write');
  });

  it('ends a session whose deadline has passed', async () => {
    const user = await createMember(alpha);
    const { cookie } = await signIn(user.email);
    expect((await getSession(cookie)).statusCode).toBe(200);
    await h.asSuperuser(`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE user_id = $1`, [
      user.id,
    ]);
    const expired = await getSession(cookie);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'unauthenticated' });
  });

  it('ends a session past its absolute lifetime however recently it was used', async () => {
    const user = await createMember(alpha);
    const { cookie } = await signIn(user.email);
    await h.asSuperuser(
      `UPDATE sessions SET created_at = now() - interval '13 hours', expires_at = now() + interval '10 minutes' WHERE user_id = $1`,
      [user.id],
    );
    expect((await getSession(cookie)).statusCode).toBe(401);
  });

  it('moves the idle deadline forward on use', async () => {
    const user = await createMember(alpha);
    const { cookie } = await signIn(user.email);
    await h.asSuperuser(`UPDATE sessions SET expires_at = now() + interval '2 minutes' WHERE user_id = $1`, [
      user.id,
    ]);
    const response = await getSession(cookie);
    expect(response.statusCode).toBe(200);
    const [row] = await h.db.withTenant(alpha.id, (tx) =>
      tx.session.findMany({ where: { userId: user.id } }),
    );
    const remainingMinutes = (row!.expiresAt.getTime() - row!.lastSeenAt.getTime()) / 60_000;
    expect(remainingMinutes).toBeGreaterThan(25);
    expect(new Date(response.json().expiresAt).getTime()).toBe(row!.expiresAt.getTime());
  });

  it('ends the session once the membership is removed or the user disabled', async () => {
    const removed = await createMember(alpha);
    const disabled = await createMember(alpha);
    const a = await signIn(removed.email);
    const b = await signIn(disabled.email);
    await h.db.withTenant(alpha.id, (tx) => tx.membership.deleteMany({ where: { userId: removed.id } }));
    await h.asSuperuser('UPDATE users SET disabled_at = now() WHERE id = $1', [disabled.id]);
    expect((await getSession(a.cookie)).statusCode).toBe(401);
    expect((await getSession(b.cookie)).statusCode).toBe(401);
  });

  it('ignores a forged or garbled cookie', async () => {
    expect((await getSession('gh_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(401);
    expect((await getSession('gh_session=../../etc')).statusCode).toBe(401);
  });
});

describe('POST /v1/auth/logout', () => {
  it('revokes the session (CSRF-checked) and clears the cookie', async () => {
    const user = await createMember(alpha);
    const { cookie, csrfToken } = await signIn(user.email);

    const withoutCsrf = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie },
      payload: {},
    });
    expect(withoutCsrf.statusCode).toBe(403);
    expect(withoutCsrf.json()).toMatchObject({ code: 'csrf_failed' });
    expect((await getSession(cookie)).statusCode).toBe(200);

    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie, 'x-csrf-token': csrfToken },
      payload: {},
    });
    expect(response.statusCode).toBe(204);
    expect(String(response.headers['set-cookie'])).toMatch(/^gh_session=; Max-Age=0;/);
    expect((await getSession(cookie)).statusCode).toBe(401);

    const [row] = await h.db.withTenant(alpha.id, (tx) =>
      tx.session.findMany({ where: { userId: user.id } }),
    );
    expect(row!.revokedAt).not.toBeNull();
    const audit = await h.db.withTenant(alpha.id, (tx) =>
      tx.auditEvent.findMany({ where: { action: 'auth.logout', actorId: user.id } }),
    );
    expect(audit).toHaveLength(1);
  });

  it('logs an audit.checkpoint of the committed head after a sign-in and after a sign-out', async () => {
    const user = await createMember(beta);
    const checkpointsOf = () =>
      logLines.filter((line) => line.event === 'audit.checkpoint' && line.tenantId === beta.id);
    const headOf = async (action: string) => {
      const [event] = await h.db.withTenant(beta.id, (tx) =>
        tx.auditEvent.findMany({ where: { action, actorId: user.id } }),
      );
      return { seq: event!.seq.toString(), hash: Buffer.from(event!.hash).toString('hex') };
    };

    const before = checkpointsOf().length;
    const { cookie, csrfToken } = await signIn(user.email);
    expect(checkpointsOf().slice(before)).toEqual([
      expect.objectContaining({ tenantId: beta.id, ...(await headOf('auth.login')) }),
    ]);

    const response = await h.app.inject({
      method: 'POST',
      url: '/v1/auth/logout',
      headers: { cookie, 'x-csrf-token': csrfToken },
      payload: {},
    });
    expect(response.statusCode).toBe(204);
    expect(checkpointsOf().slice(before + 1)).toEqual([
      expect.objectContaining({ tenantId: beta.id, ...(await headOf('auth.logout')) }),
    ]);
  });

  it('is 401 without a session', async () => {
    const response = await h.app.inject({ method: 'POST', url: '/v1/auth/logout', payload: {} });
    expect(response.statusCode).toBe(401);
  });
});

describe('CSRF on cookie-authenticated writes', () => {
  let session: { cookie: string; csrfToken: string };

  beforeAll(async () => {
    session = await signIn((await createMember(alpha)).email);
  });

  const write = (headers: Record<string, string>, payload: string | object = {}) =>
    h.app.inject({
      method: 'POST',
      url: PROBE_WRITE,
      headers: { cookie: session.cookie, ...headers },
      payload,
    });

  it('accepts a JSON write carrying the session token', async () => {
    const response = await write({ 'x-csrf-token': session.csrfToken });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ via: 'session' });
  });

  it('refuses a write without the header', async () => {
    const response = await write({});
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf_failed' });
  });

  it("refuses another session's token", async () => {
    const other = await signIn((await createMember(alpha)).email);
    const response = await write({ 'x-csrf-token': other.csrfToken });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf_failed' });
  });

  it('refuses a text/plain body (what a cross-site form can send) even with the right token', async () => {
    const response = await write({ 'x-csrf-token': session.csrfToken, 'content-type': 'text/plain' }, '{}');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'csrf_failed' });
  });

  it('refuses a urlencoded form body', async () => {
    const response = await write(
      { 'x-csrf-token': session.csrfToken, 'content-type': 'application/x-www-form-urlencoded' },
      'a=1',
    );
    expect(response.statusCode).toBe(415);
  });

  it('needs no token to read', async () => {
    const response = await h.app.inject({
      method: 'GET',
      url: PROBE_READ,
      headers: { cookie: session.cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().principal).toMatchObject({ type: 'tenant', via: 'session', tenantSlug: 'alpha' });
  });
});

describe('login throttling', () => {
  it('refuses the 6th attempt on an account from one address, with Retry-After, whatever the password', async () => {
    const user = await createMember(alpha);
    const attacker = nextIp();
    for (let i = 0; i < 5; i++) {
      expect((await login({ email: user.email, password: `wrong password ${i}` }, attacker)).statusCode).toBe(
        401,
      );
    }
    const blocked = await login({ email: user.email, password: PASSWORD }, attacker);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    // One attacker cannot lock the owner out: from the owner's own address the account still signs in.
    expect((await login({ email: user.email, password: PASSWORD }, nextIp())).statusCode).toBe(200);
  });

  it('does not let one address spend the account-wide budget with refused attempts', async () => {
    const user = await createMember(alpha);
    const attacker = nextIp();
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      statuses.push(
        (await login({ email: user.email, password: `wrong password ${i}` }, attacker)).statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(5))).toEqual(new Set([429]));
    // Only the 5 answered guesses count against the account: 55 refused ones must not reach its limit of 50.
    expect((await login({ email: user.email, password: PASSWORD }, nextIp())).statusCode).toBe(200);
  });

  it('refuses the 51st attempt on an account across addresses (distributed guessing), whatever the password', async () => {
    const user = await createMember(alpha);
    for (let i = 0; i < 50; i++) {
      expect((await login({ email: user.email, password: `wrong password ${i}` }, nextIp())).statusCode).toBe(
        401,
      );
    }
    const blocked = await login({ email: user.email, password: PASSWORD }, nextIp());
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({ code: 'rate_limited' });
  });

  it('throttles an unknown email the same way, so a 429 reveals nothing about existence', async () => {
    const known = await createMember(alpha);
    const unknown = `ghost-${randomUUID().slice(0, 8)}@example.test`;
    const responses: LightMyRequestResponse[] = [];
    for (const email of [known.email, unknown]) {
      const ip = nextIp();
      for (let i = 0; i < 5; i++) await login({ email, password: 'wrong password here' }, ip);
      responses.push(await login({ email, password: 'wrong password here' }, ip));
    }
    expect(responses.map((r) => r.statusCode)).toEqual([429, 429]);
    expect(responses[0]!.json()).toEqual(responses[1]!.json());
  });

  it('lets a successful sign-in reset the counter of that address on that account', async () => {
    const user = await createMember(alpha);
    const ip = nextIp();
    for (let i = 0; i < 4; i++) await login({ email: user.email, password: 'wrong password here' }, ip);
    expect((await login({ email: user.email, password: PASSWORD }, ip)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) await login({ email: user.email, password: 'wrong password here' }, ip);
    expect((await login({ email: user.email, password: PASSWORD }, ip)).statusCode).toBe(200);
  });

  it('refuses the 21st failure from one client IP, and a spoofed X-Forwarded-For from an untrusted peer changes nothing', async () => {
    const ip = nextIp();
    for (let i = 0; i < 20; i++) {
      const response = await login(
        { email: `ip-${i}-${randomUUID().slice(0, 6)}@example.test`, password: 'wrong one here' },
        ip,
        {
          'x-forwarded-for': `198.51.100.${i}`,
        },
      );
      expect(response.statusCode).toBe(401);
    }
    const spoofed = await login({ email: 'fresh-one@example.test', password: 'wrong one here' }, ip, {
      'x-forwarded-for': '192.0.2.200',
    });
    expect(spoofed.statusCode).toBe(429);
    expect(spoofed.headers['retry-after']).toBeDefined();
  });

  it('counts every address of one IPv6 /64 as one client: the 21st failure from the network is refused', async () => {
    const network = nextIpv6Network();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const email = `v6-${i}-${randomUUID().slice(0, 6)}@example.test`;
      statuses.push((await login({ email, password: 'wrong one here' }, network(i + 1))).statusCode);
    }
    expect(statuses.slice(0, 20)).toEqual(Array.from({ length: 20 }, () => 401));
    expect(statuses[20]).toBe(429);
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    // The next /64 is another client.
    const neighbour = nextIpv6Network();
    expect(
      (await login({ email: 'v6-next@example.test', password: 'wrong one here' }, neighbour(1))).statusCode,
    ).toBe(401);
  });

  it('believes X-Forwarded-For from the trusted proxy: clients behind it are counted separately', async () => {
    const blockedClient = '198.51.100.77';
    for (let i = 0; i < 20; i++) {
      await login(
        { email: `proxy-${i}-${randomUUID().slice(0, 6)}@example.test`, password: 'wrong one here' },
        TRUSTED_PROXY,
        {
          'x-forwarded-for': blockedClient,
        },
      );
    }
    const sameClient = await login(
      { email: 'another@example.test', password: 'wrong one here' },
      TRUSTED_PROXY,
      {
        'x-forwarded-for': blockedClient,
      },
    );
    expect(sameClient.statusCode).toBe(429);

    const user = await createMember(alpha);
    const otherClient = await login({ email: user.email, password: PASSWORD }, TRUSTED_PROXY, {
      'x-forwarded-for': `${blockedClient}, 198.51.100.78`,
    });
    expect(otherClient.statusCode).toBe(200);
  });

  it('does not spend the IP budget on successful sign-ins', async () => {
    const ip = nextIp();
    const user = await createMember(alpha);
    for (let i = 0; i < 22; i++) {
      expect((await login({ email: user.email, password: PASSWORD }, ip)).statusCode).toBe(200);
    }
  });
});
