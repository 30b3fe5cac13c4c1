import { randomUUID } from 'node:crypto';
import type { Database, MembershipRole } from '@gatehouse/db';

export interface TestTenant {
  id: string;
  slug: string;
  name: string;
}

export interface TestUser {
  id: string;
  email: string;
  role: MembershipRole;
}

export interface TestWorkspace {
  id: string;
  tenantId: string;
  name: string;
}

/** A tenant inserted as the app would: inside its own tenant context (the policy wants id = app.tenant_id). */
export async function createTestTenant(
  db: Database,
  overrides: { slug?: string; name?: string } = {},
): Promise<TestTenant> {
  const id = randomUUID();
  const slug = overrides.slug ?? `t-${id.slice(0, 8)}`;
  const name = overrides.name ?? `Tenant ${slug}`;
  await db.withTenant(id, (tx) => tx.tenant.create({ data: { id, slug, name } }));
  return { id, slug, name };
}

/** A user with a membership in the tenant. Users are global: writing one needs app.user_id set to it. */
export async function createTestUser(
  db: Database,
  tenantId: string,
  overrides: { email?: string; role?: MembershipRole; displayName?: string; passwordHash?: string } = {},
): Promise<TestUser> {
  const id = randomUUID();
  const email = overrides.email ?? `user-${id.slice(0, 8)}@example.test`;
  const role = overrides.role ?? 'member';
  await db.withTenantAndUser(tenantId, id, async (tx) => {
    await tx.user.create({
      data: {
        id,
        email,
        displayName: overrides.displayName ?? email,
        passwordHash: overrides.passwordHash ?? 'not-a-real-hash',
      },
    });
    await tx.membership.create({ data: { id: randomUUID(), tenantId, userId: id, role } });
  });
  return { id, email, role };
}

export async function createTestWorkspace(
  db: Database,
  tenantId: string,
  overrides: { name?: string; repositoryIdentity?: string; trusted?: boolean } = {},
): Promise<TestWorkspace> {
  const id = randomUUID();
  const name = overrides.name ?? `ws-${id.slice(0, 8)}`;
  await db.withTenant(tenantId, (tx) =>
    tx.workspace.create({
      data: {
        id,
        tenantId,
        name,
        repositoryIdentity: overrides.repositoryIdentity ?? null,
        trusted: overrides.trusted ?? false,
      },
    }),
  );
  return { id, tenantId, name };
}
