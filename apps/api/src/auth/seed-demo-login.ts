import { randomUUID } from 'node:crypto';
import { findLoginByEmail, findTenantIdBySlug, type Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import { randomBase62 } from './opaque-secret';
import { PasswordHasher } from './password-hasher';
import { createTenant } from './create-tenant';
import { createUser } from './create-user';
import { normalizeEmail } from './email-address';

export interface SeedDemoLoginOptions {
  readonly tenantSlug: string;
  /** Used only when the tenant does not exist yet. */
  readonly tenantName: string;
  readonly email: string;
  readonly displayName: string;
  /** By default a fresh random one on every call. */
  readonly password?: string;
  readonly hasher?: PasswordHasher;
}

export interface DemoLogin {
  readonly tenantSlug: string;
  readonly email: string;
  /** Valid from now on: print it for the person running `npm start`. */
  readonly password: string;
  readonly userCreated: boolean;
}

const SEED_ACTOR: AuditEventInput['actor'] = Object.freeze({
  type: 'system',
  id: 'demo-seed',
  tokenKind: null,
});

/**
 * For `npm start`'s demo: makes sure the demo tenant has an owner and returns a login that works. Idempotent;
 * on every run the owner gets a new password (so the printed login is always valid), which is audited. Never
 * call it against a real deployment's tenant.
 */
export async function seedDemoLogin(db: Database, options: SeedDemoLoginOptions): Promise<DemoLogin> {
  const hasher = options.hasher ?? new PasswordHasher();
  const password = options.password ?? randomBase62(20);
  const email = normalizeEmail(options.email);
  const tenantId = await ensureTenant(db, options);

  const login = await findLoginByEmail(db, email);
  if (login === null) {
    const created = await createUser(db, hasher, {
      email,
      displayName: options.displayName,
      password,
      membership: { tenantId, role: 'owner' },
      actor: SEED_ACTOR,
    });
    if (!created.ok) throw new Error(`demo login not created: ${created.reason}`);
    return { tenantSlug: options.tenantSlug, email, password, userCreated: true };
  }

  const passwordHash = await hasher.hash(password);
  const isMember = login.memberships.some((m) => m.tenantId === tenantId);
  await db.withTenantAndUser(tenantId, login.userId, async (tx) => {
    await tx.user.update({ where: { id: login.userId }, data: { passwordHash, disabledAt: null } });
    if (!isMember)
      await tx.membership.create({
        data: { id: randomUUID(), tenantId, userId: login.userId, role: 'owner' },
      });
    await appendAuditEvent(tx, {
      actor: SEED_ACTOR,
      action: 'users.passwordReset',
      target: { type: 'user', id: login.userId },
      outcome: 'success',
      data: { reason: 'demo_seed', membershipAdded: !isMember },
    });
  });
  return { tenantSlug: options.tenantSlug, email, password, userCreated: false };
}

async function ensureTenant(db: Database, options: SeedDemoLoginOptions): Promise<string> {
  const existing = await findTenantIdBySlug(db, options.tenantSlug);
  if (existing !== null) return existing;
  const created = await createTenant(db, {
    slug: options.tenantSlug,
    name: options.tenantName,
    actor: SEED_ACTOR,
  });
  if (created.ok) return created.tenant.id;
  // Another process created it meanwhile.
  const raced = await findTenantIdBySlug(db, options.tenantSlug);
  if (raced === null) throw new Error(`demo tenant not created: ${created.reason}`);
  return raced;
}
