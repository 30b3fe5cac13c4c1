import type { AuditEvent } from '@gatehouse/db';
import { toHex } from './audit-chain-encoding';

/** The API shape of one audit row (`auditEventView` in libs/commands): no prev hash, seq as a number. */
export interface AuditEventViewModel {
  id: string;
  seq: number;
  occurredAt: string;
  actorType: string;
  actorId: string | null;
  tokenKind: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  outcome: string;
  data: Record<string, unknown>;
  hash: string;
}

export function toAuditEventView(row: AuditEvent): AuditEventViewModel {
  const data = row.data;
  return {
    id: row.id,
    seq: Number(row.seq),
    occurredAt: row.occurredAt.toISOString(),
    actorType: row.actorType,
    actorId: row.actorId,
    tokenKind: row.tokenKind,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    outcome: row.outcome,
    data:
      data !== null && typeof data === 'object' && !Array.isArray(data)
        ? (data as Record<string, unknown>)
        : {},
    hash: toHex(row.hash),
  };
}
