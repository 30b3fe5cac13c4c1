import type { CommandInput, listAuditEvents } from '@gatehouse/commands';
import { AUDIT_TARGET_KINDS } from '@gatehouse/contracts';
import type { TenantTx } from '@gatehouse/db';

type AuditEventWhere = NonNullable<NonNullable<Parameters<TenantTx['auditEvent']['findMany']>[0]>['where']>;

type AuditListFilters = Omit<CommandInput<typeof listAuditEvents>, 'cursor' | 'limit'>;

/**
 * One action family as a condition: the action itself, or anything under it at a dot boundary ('approvals'
 * covers 'approvals.revoked', never 'approvalsX'). Prisma's startsWith is a LIKE that escapes nothing, so the
 * one wildcard the input schema lets through (`_`, as in oauth.sign_in_started) is escaped here.
 */
function familyCondition(family: string): AuditEventWhere {
  return { OR: [{ action: family }, { action: { startsWith: `${family.replaceAll('_', '\\_')}.` } }] };
}

/** The where clause of `audit.list` (every filter ANDed; a target kind is its families ORed). */
export function auditListWhere(
  tenantId: string,
  input: AuditListFilters,
  beforeSeq: bigint | undefined,
): AuditEventWhere {
  const occurredAt = {
    ...(input.from !== undefined ? { gte: new Date(input.from) } : {}),
    ...(input.to !== undefined ? { lt: new Date(input.to) } : {}),
  };
  const and: AuditEventWhere[] = [];
  if (input.action !== undefined) and.push(familyCondition(input.action));
  if (input.targetKind !== undefined)
    and.push({ OR: AUDIT_TARGET_KINDS[input.targetKind].actionPrefixes.map(familyCondition) });
  return {
    tenantId,
    ...(beforeSeq !== undefined ? { seq: { lt: beforeSeq } } : {}),
    ...(input.actorId !== undefined ? { actorId: input.actorId } : {}),
    ...(input.targetType !== undefined ? { targetType: input.targetType } : {}),
    ...(input.targetId !== undefined ? { targetId: input.targetId } : {}),
    ...(Object.keys(occurredAt).length > 0 ? { occurredAt } : {}),
    ...(and.length > 0 ? { AND: and } : {}),
  };
}
