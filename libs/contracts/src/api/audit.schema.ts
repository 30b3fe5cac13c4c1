import { z } from 'zod';
import { AUDIT_TARGET_KIND_NAMES } from './audit-actions';
import { isoDateTime, page, pageInput, uuid } from './common.schema';

const hashHex = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 hex digest');
const seq = z.coerce.number().int().min(0);

export const auditEventView = z
  .object({
    id: uuid,
    seq: z.number().int(),
    occurredAt: isoDateTime,
    actorType: z.string(),
    actorId: z.string().nullable(),
    tokenKind: z.string().nullable(),
    action: z.string(),
    targetType: z.string(),
    targetId: z.string().nullable(),
    outcome: z.string(),
    data: z.record(z.string(), z.unknown()),
    hash: hashHex,
  })
  .meta({ title: 'AuditEvent' });
export const auditEventPage = page(auditEventView).meta({ title: 'AuditEventPage' });

export const auditHeadView = z
  .object({ tenantId: uuid, seq: z.number().int(), hash: hashHex, at: isoDateTime })
  .meta({ title: 'AuditHead' });

export const AUDIT_CHAIN_PROBLEMS = [
  'hash_mismatch',
  'broken_link',
  'sequence_gap',
  'truncated',
  'checkpoint_mismatch',
] as const;

export const auditVerificationView = z
  .object({
    ok: z.boolean(),
    checkedRows: z.number().int(),
    headSeq: z.number().int(),
    headHash: hashHex,
    firstBadSeq: z.number().int().nullable(),
    problem: z.enum(AUDIT_CHAIN_PROBLEMS).nullable(),
  })
  .meta({ title: 'AuditVerification' });

// Dot-separated words, so a family is matched at a dot boundary and no LIKE wildcard can be smuggled in.
const auditActionFamily = z
  .string()
  .max(100)
  .regex(
    /^[A-Za-z][A-Za-z0-9]*(?:[._][A-Za-z0-9]+)*$/,
    'an action or action family, like approvals.requests',
  );

export const listAuditEventsInput = z.strictObject({
  ...pageInput,
  actorId: z.string().max(100).optional(),
  /** An action or its family: 'approvals' covers 'approvals.revoked' and 'approvals.requests.opened'. */
  action: auditActionFamily.optional(),
  /** The stored target type, exactly ('approval_request', 'workspace'). */
  targetType: z.string().max(100).optional(),
  /** What the row is about, as the dashboard names it (an overlay's row targets its workspace). */
  targetKind: z.enum(AUDIT_TARGET_KIND_NAMES).optional(),
  targetId: z.string().max(100).optional(),
  from: isoDateTime.optional(),
  to: isoDateTime.optional(),
});
/** `GET /v1/audit-events/export`: the list's filters (no paging: the whole filtered log, streamed). */
export const AUDIT_EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export const exportAuditEventsInput = listAuditEventsInput
  .omit({ cursor: true, limit: true })
  .extend({ format: z.enum(AUDIT_EXPORT_FORMATS).default('jsonl') });
export const AUDIT_EXPORT_PATH = '/v1/audit-events/export';

export const getAuditHeadInput = z.strictObject({});
export const verifyAuditChainInput = z.strictObject({
  checkpointSeq: seq.optional(),
  checkpointHash: hashHex.optional(),
});
