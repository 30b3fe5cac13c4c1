import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';
import { isoDateTime, page, pageInput, uuid } from '../common.schemas';

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

export const auditHeadView = z
  .object({ tenantId: uuid, seq: z.number().int(), hash: hashHex, at: isoDateTime })
  .meta({ title: 'AuditHead' });

export const listAuditEvents = defineCommand({
  name: 'audit.list',
  summary: 'Audit events, newest first, with filters',
  scope: 'audit:read',
  kind: 'query',
  input: z.strictObject({
    ...pageInput,
    actorId: z.string().max(100).optional(),
    action: z.string().max(100).optional(),
    targetType: z.string().max(100).optional(),
    targetId: z.string().max(100).optional(),
    from: isoDateTime.optional(),
    to: isoDateTime.optional(),
  }),
  output: page(auditEventView).meta({ title: 'AuditEventPage' }),
  http: { method: 'GET', path: '/v1/audit-events' },
  graphql: { field: 'auditEvents' },
  surfaces: { mcp: MCP_READ },
  problems: ['bad_cursor'],
});

export const getAuditHead = defineCommand({
  name: 'audit.head',
  summary: "The chain head to checkpoint outside Gatehouse (detects deletion of the newest rows)",
  scope: 'audit:read',
  kind: 'query',
  input: z.strictObject({}),
  output: auditHeadView,
  http: { method: 'GET', path: '/v1/audit-events/head' },
  graphql: { field: 'auditHead' },
  surfaces: { mcp: MCP_READ },
  problems: [],
});

export const verifyAuditChain = defineCommand({
  name: 'audit.verify',
  summary: 'Recompute the chain; names the first bad row. Give a checkpoint to detect truncation.',
  scope: 'audit:read',
  kind: 'query',
  input: z.strictObject({ checkpointSeq: seq.optional(), checkpointHash: hashHex.optional() }),
  output: z
    .object({
      ok: z.boolean(),
      checkedRows: z.number().int(),
      headSeq: z.number().int(),
      headHash: hashHex,
      firstBadSeq: z.number().int().nullable(),
      problem: z.enum(['hash_mismatch', 'broken_link', 'sequence_gap', 'truncated', 'checkpoint_mismatch']).nullable(),
    })
    .meta({ title: 'AuditVerification' }),
  http: { method: 'GET', path: '/v1/audit-events/verify' },
  graphql: { field: 'verifyAuditChain' },
  surfaces: { mcp: MCP_READ },
  problems: [],
});
