import {
  freshLeaseTokens,
  type FreshLeaseTokens,
  type HeldLease,
  type HeldLeases,
  type IssuedLease,
  type LeaseApiClient,
} from '@gatehouse/lease-holder';
import type { Logger } from '@gatehouse/platform';
import type { LeaseRevocationsHolder } from '../revocations/lease-revocations.holder.js';

// What every worker job on one server does around its own work (catalog refresh, probe): the ledger position taken
// before the lease (decision 0073: a revocation between issuance and the first watch still reaches it), the lease,
// held so a revocation drops it, the one fresh lease a 401 may ask for (decision 0098), the tenant watched before
// connecting (the lease dropped unused while its holder is not live), and, whatever happens, both leases released
// and forgotten (a failed release leaves them to expire).

/** A job given up midway at shutdown: thrown so BullMQ retries it on a worker that stays. */
export class JobAbandonedError extends Error {
  constructor() {
    super('abandoned at shutdown');
    this.name = 'JobAbandonedError';
  }
}

export type DroppedOutcome = { outcome: 'dropped'; reason: 'revoked' | 'revalidate' };

/** The outcome when the lease was dropped meanwhile; a drop at shutdown throws so the job is retried elsewhere. */
export function droppedOutcome(held: HeldLease): DroppedOutcome | null {
  switch (held.dropped) {
    case null:
      return null;
    case 'shutdown':
      throw new JobAbandonedError();
    case 'revoked':
    case 'revalidate':
      return { outcome: 'dropped', reason: held.dropped };
  }
}

export interface LeasedJobDeps {
  readonly api: LeaseApiClient;
  readonly held: HeldLeases;
  readonly revocations: LeaseRevocationsHolder;
  readonly logger: Logger;
}

export interface LeasedJobRequest {
  readonly input: { workspaceId: string; serverName: string; principalUserId: string | null };
  /** The job's words in its log lines ("catalog refresh", "probe"). */
  readonly label: string;
  readonly ids: Record<string, unknown>;
}

export interface LeasedWork {
  readonly lease: IssuedLease;
  readonly held: HeldLease;
  readonly fresh: FreshLeaseTokens;
  /** The job's ids with the lease's: for every log line about this lease. */
  readonly logIds: Record<string, unknown>;
}

export type LeasedJobResult<T> =
  | { readonly leased: false; readonly status: number | null; readonly code: string }
  | { readonly leased: true; readonly value: T };

export async function runLeasedJob<T>(
  deps: LeasedJobDeps,
  request: LeasedJobRequest,
  work: (leased: LeasedWork) => Promise<T>,
): Promise<LeasedJobResult<T>> {
  const { api, revocations, logger } = deps;
  const { input, label, ids } = request;
  const since = await revocations.positionBeforeLease();
  const issued = await api.issue(input);
  if (!issued.ok) return { leased: false, status: issued.status, code: issued.code };
  const lease = issued.lease;
  const held = deps.held.hold({
    leaseId: lease.id,
    tenantId: lease.tenantId,
    workspaceId: lease.workspaceId,
    serverName: lease.serverName,
    approvalId: lease.approvalId,
    principalUserId: lease.principalUserId,
  });
  const logIds = { ...ids, leaseId: lease.id, serverName: lease.serverName };
  const fresh = freshLeaseTokens({
    api,
    leases: deps.held,
    input,
    lease,
    held,
    onRefused: (refusal) => logger.info({ ...logIds, ...refusal }, `${label}: no fresh lease`),
  });
  try {
    // Subscribed before connecting: a revocation since the lease was asked for drops it and closes its connection.
    // While the tenant's holder is not live nothing vouches for the lease: it is dropped unused (decision 0129).
    if (!(await revocations.watch(lease.tenantId, since)))
      deps.held.drop('revalidate', (facts) => facts.leaseId === lease.id);
    return { leased: true, value: await work({ lease, held, fresh, logIds }) };
  } finally {
    await fresh.release().catch((error: unknown) => {
      logger.warn({ ...logIds, err: error }, `${label}: fresh lease release failed; it expires`);
    });
    deps.held.forget(lease.id);
    // Released even after a drop (idempotent at the API).
    await api.release(lease.id).catch((error: unknown) => {
      logger.warn({ ...logIds, err: error }, `${label}: lease release failed; it expires`);
    });
  }
}
