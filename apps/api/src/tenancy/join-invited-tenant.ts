import { randomUUID } from 'node:crypto';
import { ROLE_SCOPES, type MembershipRole } from '@gatehouse/commands';
import { findInvitationBySecretHash, type Database, type InvitationLookup } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import type { AuditEventInput } from '../audit/audit-event';
import { invitationSecretHash } from './invitation-secret';
import { pendingAt } from './invitation-views';

// The one way into a tenant through an invitation, shared by `invitations.accept` (signed in) and the link
// route (signing in or creating the account there). The invitation is read through the definer lookup (the
// person is no member yet), then everything is re-checked and written in the invitation's tenant.

export type JoinRefusal =
  /** No such secret, or expired, revoked or used; or an owner invitation whose inviter is no owner any more. */
  | 'unusable'
  /** The account's email is not the invited one. Answered like `unusable`: it confirms nothing. */
  | 'email_mismatch'
  | 'already_member';

export type JoinResult =
  | {
      readonly ok: true;
      readonly tenant: { readonly id: string; readonly slug: string; readonly name: string };
      readonly role: MembershipRole;
      readonly joinedAt: Date;
    }
  | { readonly ok: false; readonly reason: JoinRefusal };

/** The invitation of a secret when it is usable now (pending); null otherwise. */
export async function findUsableInvitation(
  db: Database,
  secret: string,
  now: Date,
): Promise<InvitationLookup | null> {
  const found = await findInvitationBySecretHash(db, invitationSecretHash(secret));
  if (found === null || found.acceptedAt !== null || found.revokedAt !== null) return null;
  return found.expiresAt.getTime() > now.getTime() ? found : null;
}

/** Whether an inviter holding `inviterRole` now (null: no member any more) may grant `role`. */
function mayStillGrant(inviterRole: MembershipRole | null, role: MembershipRole): boolean {
  if (inviterRole === null) return false;
  if (role === 'owner') return inviterRole === 'owner';
  return ROLE_SCOPES[inviterRole].includes('members:write');
}

export interface JoinOptions {
  readonly invitation: InvitationLookup;
  readonly userId: string;
  readonly actor: AuditEventInput['actor'];
  readonly now: Date;
}

/**
 * Makes the user a member of the invitation's tenant with its role, marks it accepted and audits it, in one
 * transaction. The accepted mark is a compare-and-set on "still pending", so a concurrent revoke or a second
 * accept of the same link loses cleanly.
 */
export async function joinInvitedTenant(db: Database, options: JoinOptions): Promise<JoinResult> {
  const { invitation, userId, now } = options;
  const tenantId = invitation.tenantId;
  return db.withTenantAndUser(tenantId, userId, async (tx) => {
    // app.user_id makes the person's own row readable although they are no member here yet.
    const user = await tx.user.findUnique({
      where: { id: userId },
      select: { email: true, disabledAt: true },
    });
    if (user === null || user.disabledAt !== null) return { ok: false, reason: 'unusable' } as const;
    if (user.email !== invitation.email) return { ok: false, reason: 'email_mismatch' } as const;
    const row = await tx.invitation.findUnique({ where: { id: invitation.id } });
    if (row === null) return { ok: false, reason: 'unusable' } as const;
    // An invitation grants only what its inviter may still grant: owner only while the inviter is an owner,
    // any other role only while the inviter may still invite (a removed or demoted admin's links die with it).
    const inviter =
      row.createdById === null
        ? null
        : await tx.membership.findUnique({
            where: { tenantId_userId: { tenantId, userId: row.createdById } },
            select: { role: true },
          });
    if (!mayStillGrant(inviter?.role ?? null, row.role)) return { ok: false, reason: 'unusable' } as const;
    const existing = await tx.membership.findUnique({
      where: { tenantId_userId: { tenantId, userId } },
      select: { id: true },
    });
    if (existing !== null) return { ok: false, reason: 'already_member' } as const;

    const marked = await tx.invitation.updateMany({
      where: { id: row.id, ...pendingAt(now) },
      data: { acceptedAt: now, acceptedById: userId },
    });
    if (marked.count === 0) return { ok: false, reason: 'unusable' } as const;
    const membership = await tx.membership.create({
      data: { id: randomUUID(), tenantId, userId, role: row.role, createdAt: now },
    });
    await appendAuditEvent(tx, {
      actor: options.actor,
      action: 'invitations.accept',
      target: { type: 'invitation', id: row.id },
      outcome: 'success',
      data: { userId, role: row.role },
    });
    return {
      ok: true,
      tenant: { id: tenantId, slug: invitation.tenantSlug, name: invitation.tenantName },
      role: membership.role,
      joinedAt: membership.createdAt,
    } as const;
  });
}
