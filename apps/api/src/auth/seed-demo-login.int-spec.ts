import { findTenantIdBySlug } from '@gatehouse/db';
import { TEST_HASHER, createIdentityHarness, type IdentityHarness } from './testing/identity-harness';
import { seedDemoLogin } from './seed-demo-login';

// npm start's demo seed: creates the demo tenant's owner once, and on every run hands back a login that works.

jest.setTimeout(60_000);

let h: IdentityHarness;

const options = {
  tenantSlug: 'demo',
  tenantName: 'Demo',
  email: 'Demo@Gatehouse.local',
  displayName: 'Demo Owner',
};

function login(email: string, password: string) {
  return h.app.inject({ method: 'POST', url: '/v1/auth/login', payload: { email, password } });
}

beforeAll(async () => {
  h = await createIdentityHarness();
});

afterAll(async () => {
  await h.close();
});

it('creates the demo tenant and owner, then rotates the password on each run', async () => {
  const first = await seedDemoLogin(h.db, { ...options, hasher: TEST_HASHER });
  expect(first).toMatchObject({ tenantSlug: 'demo', email: 'demo@gatehouse.local', userCreated: true });
  expect(first.password.length).toBeGreaterThanOrEqual(12);
  const signedIn = await login(first.email, first.password);
  expect(signedIn.statusCode).toBe(200);
  expect(signedIn.json()).toMatchObject({ tenant: { slug: 'demo' }, role: 'owner' });

  const second = await seedDemoLogin(h.db, { ...options, hasher: TEST_HASHER });
  expect(second.userCreated).toBe(false);
  expect(second.password).not.toBe(first.password);
  expect((await login(first.email, first.password)).statusCode).toBe(401);
  expect((await login(second.email, second.password)).statusCode).toBe(200);

  const tenantId = (await findTenantIdBySlug(h.db, 'demo')) as string;
  const actions = await h.db.withTenant(tenantId, (tx) =>
    tx.auditEvent.findMany({ orderBy: { seq: 'asc' }, select: { action: true, actorType: true } }),
  );
  expect(actions.filter((a) => a.actorType === 'system').map((a) => a.action)).toEqual([
    'tenant.create',
    'members.add',
    'users.passwordReset',
  ]);
});
