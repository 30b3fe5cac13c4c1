import { randomUUID } from 'node:crypto';
import type { ActivationDecision, ApprovalIdentity } from '@gatehouse/activation';
import { issueLease, type CommandInput, type CommandOutput } from '@gatehouse/commands';
import type { ProcessAuthority, AdmittedTransportDescription } from '@gatehouse/contracts';
import { readLeaseIssuanceInputs, type Database, type Workspace } from '@gatehouse/db';
import type { ProblemError } from '@gatehouse/platform';
import { Inject } from '@nestjs/common';
import type { CheckAdmissionDeps } from '../admission/admission-deps';
import { openApprovalRequests } from '../approval-requests/approval-requests-opener';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditAppendCall, noteAppendedLink, type AppendedLinkRow } from '../audit/audit-append-statements';
import { poolCeilingOf, type WorkerPools } from '../auth/pool-config';
import type { Principal } from '../auth/principal';
import type { UseCase, UseCaseArgs } from '../commands/command-handler';
import { notFound, poolNotOpen } from '../shared/command-problems';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { definitionSnapshotOf } from '../effective-view/definition-snapshot';
import type { TenantHostPolicy } from '../host-policy/host-policy';
import { hostPolicyOfRow } from '../host-policy/host-policy-view';
import { CHECK_ADMISSION_DEPS, CLOCK, WORKER_POOLS, type Clock } from '../infrastructure/command-deps-tokens';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { LeaseAccessTokens } from '../oauth-credentials/lease-access-tokens';
import { serverActivationOf, type ServerActivation } from '../effective-view/server-activation';
import { leaseAuditActor, leaseCallerForWorkspace, type LeaseCaller } from '../held-leases/lease-caller';
import { leaseExpiryOf } from './lease-expiry';
import { OpenedDocumentsCache } from './opened-documents-cache';
import { LeaseGrantBatcher } from './lease-grant-batcher';
import {
  destinationRefused,
  headerHelperRefused,
  needsSignIn,
  notApproved,
  oauthRefreshUnavailable,
  stdioRefused,
} from '../held-leases/lease-problems';
import { serverNotLeasable } from '../effective-view/view-problems';
import { admitLeaseTransport, withAccessToken, type LeaseTransportRefusal } from './lease-transport';
import { leaseAuditEvent, type LeaseAuditSubject } from './lease-audit';

type Input = CommandInput<typeof issueLease>;
type Output = CommandOutput<typeof issueLease>;
type AuditValue = string | number | boolean | null;

/** What the read phase decided from, before any DNS lookup (which must not hold a connection). */
interface LeaseRead {
  readonly workspace: Workspace;
  readonly activation: ServerActivation;
  readonly tenantPolicy: TenantHostPolicy;
}

/** Everything a granted lease is issued from. */
interface Granted {
  readonly ok: true;
  readonly identity: ApprovalIdentity;
  readonly approvalId: string;
  readonly approvalExpiresAt: Date | null;
  readonly transport: AdmittedTransportDescription;
  readonly spawnRecheck: ProcessAuthority | null;
  /** For a server that declares OAuth: whose credential the access token is, and when it expires (epoch ms). */
  readonly credential: { readonly subject: 'user' | 'workspace'; readonly expiresAt: number | null } | null;
}

/** A refusal: the problem to answer (given the request it opened, if any) and what the audit records. */
interface Refused {
  readonly ok: false;
  readonly problem: (approvalRequestId: string | null) => ProblemError;
  readonly audit: Readonly<Record<string, AuditValue>>;
  /** An approval is missing or expired (or approves what the server was): ask a person, through the opener. */
  readonly opensRequest: boolean;
}

/**
 * `leases.issue` (worker and gateway tokens, leases:write): for one server of one workspace, for a principal or
 * the workspace alone. Activation is re-decided for that one server now; then URL admission or the stdio
 * authority runs for the asking token's pool (HostPolicy within the operator's ceiling, from the current
 * WORKER_POOLS); then env and headers are materialized. The lease row holds no secret; the response does, and
 * goes to the holder only (`revealsSecret`: Cache-Control no-store).
 *
 * Every outcome past "which workspace" is audited with the full identity (token, kind, pool, workspace, server,
 * principal, fingerprint): issuing in the lease's transaction, refusing in its own committed transaction before
 * the problem is thrown. A refusal because no approval holds opens an approval request (trigger
 * `lease_refused_pending`), whose id the problem carries.
 */
@HandlesCommand(issueLease)
export class IssueLeaseUseCase implements UseCase<Input, Output> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(WORKER_POOLS) private readonly pools: WorkerPools,
    @Inject(CHECK_ADMISSION_DEPS) private readonly deps: CheckAdmissionDeps,
    @Inject(LeaseAccessTokens) private readonly accessTokens: LeaseAccessTokens,
    @Inject(CLOCK) private readonly clock: Clock = () => new Date(),
  ) {
    this.grants = new LeaseGrantBatcher(db);
    this.documents = new OpenedDocumentsCache(cipher);
  }

  /** Definition documents opened by earlier leases of this process, by row and exact ciphertext (decision 0122). */
  private readonly documents: OpenedDocumentsCache;

  /** One per use case, i.e. per API process: grants of a tenant arriving together commit together. */
  private readonly grants: LeaseGrantBatcher;

  async execute({ principal, input }: UseCaseArgs<Input, Principal>): Promise<Output> {
    const caller = await leaseCallerForWorkspace(this.db, this.pools, principal, input.workspaceId);
    const userId = input.principalUserId?.toLowerCase() ?? null;
    const now = this.clock();
    const read = await this.readPhase(caller.tenantId, input.workspaceId, userId, input.serverName, now);
    const subject: LeaseAuditSubject = {
      workspaceId: read.workspace.id,
      serverName: input.serverName,
      principalUserId: userId,
    };

    const verdict = await this.judge(caller, read, userId, input.serverName, input.refusedAccessTokenSha256);
    if (!verdict.ok) throw await this.refuse(caller, read.workspace, subject, verdict);
    return this.grant(caller, read.workspace, subject, verdict, now);
  }

  /**
   * Everything the decision needs in ONE round trip (one READ ONLY transaction, row-level security as in
   * withTenant), decided in memory. What it read may change before the write: the grant re-reads the approval
   * under the audit head's lock, and every other change ends the lease through its ledger event (decision 0093).
   */
  private async readPhase(
    tenantId: string,
    workspaceId: string,
    userId: string | null,
    serverName: string,
    now: Date,
  ): Promise<LeaseRead> {
    const inputs = await readLeaseIssuanceInputs(this.db, tenantId, {
      workspaceId,
      principalUserId: userId,
      serverName,
    });
    const { workspace } = inputs;
    if (workspace === null) throw notFound('workspace');
    // Leasing for a user means a member of this tenant; anyone else reads like an id that does not exist.
    if (!inputs.member) throw notFound('member');
    const snapshot = definitionSnapshotOf(this.documents, tenantId, inputs);
    const activation = serverActivationOf(snapshot, inputs.approvals, { workspace, userId, serverName, now });
    return { workspace, activation, tenantPolicy: hostPolicyOfRow(inputs.hostPolicy) };
  }

  /** Activation, then the asking pool's authority over the transport, in that order. */
  private async judge(
    caller: LeaseCaller,
    read: LeaseRead,
    userId: string | null,
    serverName: string,
    /** The holder's server refused the token with this digest (OAuth): refreshed first if still stored. */
    refusedAccessTokenSha256: string | undefined,
  ): Promise<Granted | Refused> {
    const { entry, decision, identity } = read.activation;
    if (entry === null || decision === null) {
      return refusedWith(() => notFound('server'), { code: 'not_found', reason: 'unknown_server' });
    }
    if (entry.status !== 'resolved') {
      return refusedWith(() => serverNotLeasable(entry.status), {
        code: 'server_not_leasable',
        reason: entry.status,
      });
    }
    if (decision.state !== 'approved' || identity === null) {
      return {
        ok: false,
        problem: (approvalRequestId) =>
          notApproved({ activationState: decision.state, reasons: decision.reasons, approvalRequestId }),
        audit: { code: 'not_approved', reason: decision.state, reasons: decision.reasons.join(',') },
        opensRequest: opensRequest(decision),
      };
    }
    const pool = this.pools[caller.pool];
    // The runner checked the pool against the current config; it is read once more here, from the same object.
    if (pool === undefined) return refusedWith(() => poolNotOpen(), { code: 'pool_not_open', reason: null });
    const admitted = await admitLeaseTransport(entry, {
      pool: caller.pool,
      ceiling: poolCeilingOf(pool),
      tenantPolicy: read.tenantPolicy,
      principalUserId: userId,
      resolver: this.deps.resolver,
      log: this.deps.log,
      logContext: { tenantId: caller.tenantId, workspaceId: read.workspace.id, serverName },
    });
    if (!admitted.ok) return transportRefusal(admitted.refusal, caller.pool, identity);
    const granted = {
      ok: true,
      identity,
      approvalId: decision.matchedApprovalId,
      approvalExpiresAt: decision.expiresAt,
    } as const;
    if (admitted.oauth === null || admitted.transport.kind !== 'http')
      return {
        ...granted,
        transport: admitted.transport,
        spawnRecheck: admitted.spawnRecheck,
        credential: null,
      };

    // OAuth: the principal's own credential first, then the workspace's service credential where allowed;
    // refreshed here (once across API processes) when expired. Never a refresh token in the lease.
    const token = await this.accessTokens.forLease({
      tenantId: caller.tenantId,
      tenantSlug: caller.tenantSlug,
      tenantPolicy: read.tenantPolicy,
      workspaceId: read.workspace.id,
      principalUserId: userId,
      serverIdentity: identity.securityIdentity,
      serverUrl: admitted.transport.url,
      allowSharedCredential: admitted.oauth.allowSharedCredential,
      ...(refusedAccessTokenSha256 === undefined ? {} : { refusedAccessTokenSha256 }),
    });
    const audit = { definitionFingerprint: identity.definitionFingerprint, approvalIdentity: identity.key };
    if (!token.ok) {
      const principalKind = userId === null ? 'workspace' : 'user';
      return token.reason === 'needs_sign_in'
        ? refusedWith(() => needsSignIn(principalKind), { ...audit, code: 'needs_sign_in', reason: 'oauth' })
        : refusedWith(() => oauthRefreshUnavailable(), {
            ...audit,
            code: 'oauth_refresh_unavailable',
            reason: 'oauth',
          });
    }
    const carried = withAccessToken(admitted, token);
    if (!carried.ok) return transportRefusal(carried.refusal, caller.pool, identity);
    return {
      ...granted,
      transport: carried.transport,
      spawnRecheck: carried.spawnRecheck,
      credential: { subject: token.subject, expiresAt: token.expiresAt },
    };
  }

  /** Audits the refusal (and opens the approval request it calls for) in a committed transaction. */
  private async refuse(
    caller: LeaseCaller,
    workspace: Workspace,
    subject: LeaseAuditSubject,
    refused: Refused,
  ): Promise<ProblemError> {
    const approvalRequestId = await this.db.withTenant(caller.tenantId, async (tx) => {
      let requestId: string | null = null;
      if (refused.opensRequest) {
        const opened = await openApprovalRequests(tx, this.cipher, {
          tenantId: caller.tenantId,
          views: [{ workspace, userId: subject.principalUserId }],
          trigger: 'lease_refused_pending',
          authorUserId: null,
          actor: leaseAuditActor(caller),
          serverName: subject.serverName,
        });
        requestId = opened[0]?.request.id ?? null;
      }
      await appendAuditEvent(
        tx,
        leaseAuditEvent(caller, 'leases.refused', null, subject, {
          ...refused.audit,
          approvalRequestId: requestId,
        }),
      );
      return requestId;
    });
    return refused.problem(approvalRequestId);
  }

  /**
   * Writes the lease and its audit event. The approval it rests on is read again in this transaction: one revoked
   * since the decision (before this commit) refuses the lease instead of issuing it on a decision now untrue.
   */
  private async grant(
    caller: LeaseCaller,
    workspace: Workspace,
    subject: LeaseAuditSubject,
    granted: Granted,
    now: Date,
  ): Promise<Output> {
    const id = randomUUID();
    const expiresAt = leaseExpiryOf(now, granted.approvalExpiresAt, granted.credential?.expiresAt ?? null);
    const { identity } = granted;
    const identityAudit = {
      sourceTier: identity.source.tier,
      sourceOrigin: identity.source.origin,
      definitionFingerprint: identity.definitionFingerprint,
      securityIdentity: identity.securityIdentity,
      approvalId: granted.approvalId,
      transport: granted.transport.kind,
      // Whose OAuth credential the lease carries a token of (never the token).
      oauthSubject: granted.credential?.subject ?? null,
    };
    const issuedAudit = leaseAuditEvent(caller, 'leases.issued', id, subject, {
      ...identityAudit,
      expiresAt: expiresAt.toISOString(),
    });
    const lease = [
      id,
      caller.tenantId,
      workspace.id,
      caller.tokenId,
      caller.tokenKind,
      caller.pool,
      subject.principalUserId,
      identity.serverName,
      identity.source.tier,
      identity.source.origin,
      identity.definitionFingerprint,
      identity.securityIdentity,
      granted.approvalId,
      granted.transport.kind,
      now,
      expiresAt,
    ];
    const append = auditAppendCall(issuedAudit, lease.length + 1);
    // ONE round trip, batched with the tenant's other grants (decision 0100, lease-grant-batcher.ts): the audit
    // head's lock as its own statement (the lock order of lease writers, decision 0071; the statements after it
    // read snapshots taken after the lock), then this statement: it re-reads the approval, inserts the lease only
    // while it is not revoked, and appends its audit row with the link computed in the database; then COMMIT. A
    // revoke committed before the lock is seen here; one after it waits for this commit and then ends this lease
    // with the others. The head is never held across a round trip to the API.
    const answered = await this.grants.grant(caller.tenantId, {
      // Prepared once per connection: the text is the same for every grant (its parameters from $17 always).
      name: 'lease-grant',
      text: `WITH lease AS (
        INSERT INTO leases (id, tenant_id, workspace_id, token_id, token_kind, pool, principal_user_id,
          server_name, source_tier, source_origin, definition_fingerprint, security_identity, approval_id,
          transport, issued_at, expires_at)
        SELECT $1::uuid, $2::uuid, $3::uuid, $4::uuid, $5::token_kind, $6, $7::uuid, $8, $9::definition_tier,
          $10, $11, $12, a.id, $14, $15, $16
          FROM approvals AS a WHERE a.id = $13::uuid AND a.revoked_at IS NULL
        RETURNING id
      )
      SELECT appended.link_seq::text AS link_seq, appended.link_hash
        FROM lease CROSS JOIN LATERAL ${append.sql} AS appended`,
      values: [...lease, ...append.values],
    });
    const [appended] = answered as AppendedLinkRow[];
    if (appended === undefined) {
      // The approval was revoked since the decision: no lease was written. The refusal is audited in its own
      // committed transaction, as every other refusal, before the problem is thrown.
      const refusedAudit = leaseAuditEvent(caller, 'leases.refused', null, subject, {
        ...identityAudit,
        code: 'not_approved',
        reason: 'revoked',
      });
      await this.db.withTenant(caller.tenantId, (tx) => appendAuditEvent(tx, refusedAudit));
      throw notApproved({ activationState: 'revoked', reasons: [], approvalRequestId: null });
    }
    noteAppendedLink(caller.tenantId, appended);
    return {
      id,
      tenantId: caller.tenantId,
      workspaceId: workspace.id,
      serverName: identity.serverName,
      principalUserId: subject.principalUserId,
      pool: caller.pool,
      source: { tier: identity.source.tier, origin: identity.source.origin },
      definitionFingerprint: identity.definitionFingerprint,
      securityIdentity: identity.securityIdentity,
      approvalId: granted.approvalId,
      issuedAt: now.toISOString(),
      expiresAt: expiresAt.toISOString(),
      transport: { v: 1, transport: granted.transport },
      spawnRecheck: granted.spawnRecheck,
    };
  }
}

function refusedWith(problem: () => ProblemError, audit: Readonly<Record<string, AuditValue>>): Refused {
  return { ok: false, problem, audit, opensRequest: false };
}

/** Nothing decided yet, the last approval expired, or an approval of what the server was (stale). */
function opensRequest(decision: ActivationDecision): boolean {
  if (decision.state === 'stale') return true;
  if (decision.state !== 'pending') return false;
  return decision.reasons.includes('no_admission_decision') || decision.reasons.includes('approval_expired');
}

function transportRefusal(refusal: LeaseTransportRefusal, pool: string, identity: ApprovalIdentity): Refused {
  const audit = { definitionFingerprint: identity.definitionFingerprint, approvalIdentity: identity.key };
  switch (refusal.kind) {
    case 'destination_refused':
      // One class for the tenant's audit too: the cause is in the operator's log (admission-log.ts).
      return refusedWith(() => destinationRefused(pool), { ...audit, code: refusal.kind, reason: null });
    case 'header_helper_refused':
      return refusedWith(() => headerHelperRefused(pool, refusal.reason), {
        ...audit,
        code: refusal.kind,
        reason: refusal.reason,
      });
    case 'stdio_refused':
      return refusedWith(() => stdioRefused(pool, refusal.reason, refusal.key), {
        ...audit,
        code: refusal.kind,
        reason: refusal.reason,
        // The refused env variable's NAME (never its value); `envName`, as the audit guard refuses a `key` field.
        ...(refusal.key === null ? {} : { envName: refusal.key }),
      });
    case 'out_of_contract':
      return refusedWith(() => serverNotLeasable('out_of_contract'), {
        ...audit,
        code: 'server_not_leasable',
        reason: refusal.kind,
      });
    default: {
      const unreachable: never = refusal;
      throw new Error(`unknown lease refusal ${String(unreachable)}`);
    }
  }
}
