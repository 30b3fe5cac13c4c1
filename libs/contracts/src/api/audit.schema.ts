import { z } from 'zod';
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

export const listAuditEventsInput = z.strictObject({
  ...pageInput,
  actorId: z.string().max(100).optional(),
  action: z.string().max(100).optional(),
  targetType: z.string().max(100).optional(),
  targetId: z.string().max(100).optional(),
  from: isoDateTime.optional(),
  to: isoDateTime.optional(),
});
export const getAuditHeadInput = z.strictObject({});
export const verifyAuditChainInput = z.strictObject({
  checkpointSeq: seq.optional(),
  checkpointHash: hashHex.optional(),
});
