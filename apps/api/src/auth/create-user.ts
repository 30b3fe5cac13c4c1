import { randomUUID } from 'node:crypto';
import type { MembershipRole } from '@gatehouse/commands';
import { findLoginByEmail, type Database } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import { checkPasswordPolicy, type PasswordHasher } from './password-hasher';
import { isUniqueViolation } from '../shared/unique-violation';
import { isEmailAddress, normalizeEmail } from './email-address';

export interface CreateUserOptions {
  readonly email: string;
  readonly displayName: string;
  readonly password: string;
  /** A first membership, created in the same transaction (and audited in that tenant). */
  readonly membership?: { readonly tenantId: string; readonly role: MembershipRole };
  readonly actor: AuditEventInput['actor'];
}

export interface CreatedUser {
  readonly id: string;
  readonly email: string;
  readonly displayName: string;
}

export type CreateUserRefusal =
  'invalid_email' | 'invalid_display_name' | 'password_too_short' | 'password_too_long' | 'email_taken';

export type CreateUserResult =
  | { readonly ok: true; readonly user: CreatedUser }
  | { readonly ok: false; readonly reason: CreateUserRefusal };

export const DISPLAY_NAME_MAX_LENGTH = 120;

// Users are global rows: the users policy lets a transaction write only the row whose id is app.user_id.
// Without a tenant to join, the user is written under a tenant id no tenant has, so nothing else is visible.
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

/** A local account (argon2id), optionally with a first membership. The password is checked, hashed, dropped. */
export async function createUser(
  db: Database,
  hasher: PasswordHasher,
  options: CreateUserOptions,
): Promise<CreateUserResult> {
  const email = normalizeEmail(options.email);
  const displayName = options.displayName.trim();
  if (!isEmailAddress(email)) return { ok: false, reason: 'invalid_email' };
  if (displayName.length === 0 || displayName.length > DISPLAY_NAME_MAX_LENGTH) {
    return { ok: false, reason: 'invalid_display_name' };
  }
  const policy = checkPasswordPolicy(options.password);
  if (!policy.ok) return { ok: false, reason: policy.reason };
  if ((await findLoginByEmail(db, email)) !== null) return { ok: false, reason: 'email_taken' };

  const id = randomUUID();
  const passwordHash = await hasher.hash(options.password);
  const membership = options.membership;
  try {
    await db.withTenantAndUser(membership?.tenantId ?? NO_TENANT, id, async (tx) => {
      await tx.user.create({ data: { id, email, displayName, passwordHash } });
      if (membership === undefined) return;
      await tx.membership.create({
        data: { id: randomUUID(), tenantId: membership.tenantId, userId: id, role: membership.role },
      });
      await appendAuditEvent(tx, {
        actor: options.actor,
        action: 'members.add',
        target: { type: 'user', id },
        outcome: 'success',
        data: { role: membership.role, accountCreated: true },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'email_taken' };
    throw error;
  }
  return { ok: true, user: { id, email, displayName } };
}
