import type { activationView } from '@gatehouse/commands';
import type { z } from 'zod';
import type { EvaluatedEntry } from './effective-views';

export type ActivationOut = z.infer<typeof activationView>;

/** The activation part of an entry as the API shows it (Servers page, admission check). */
export function toActivationView(evaluated: Pick<EvaluatedEntry, 'decision' | 'openRequest'>): ActivationOut {
  const { decision } = evaluated;
  const base = {
    state: decision.state,
    reasons: [...decision.reasons],
    approvalId: null,
    expiresAt: null,
    staleBecause: [],
    openRequestId: evaluated.openRequest?.id ?? null,
  };
  switch (decision.state) {
    case 'approved':
      return {
        ...base,
        approvalId: decision.matchedApprovalId,
        expiresAt: decision.expiresAt?.toISOString() ?? null,
      };
    case 'denied':
    case 'revoked':
      return { ...base, approvalId: decision.matchedApprovalId };
    case 'stale':
      return { ...base, approvalId: decision.matchedApprovalId, staleBecause: [...decision.staleBecause] };
    case 'pending':
    case 'untrusted':
      return base;
    default: {
      const unreachable: never = decision;
      throw new Error(`unknown decision ${String(unreachable)}`);
    }
  }
}
