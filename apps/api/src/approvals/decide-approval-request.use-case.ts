import { randomUUID } from 'node:crypto';
import { canDecide, type DecisionAuthority } from '@gatehouse/activation';
import { type CommandInput, decideApprovalRequest } from '@gatehouse/commands';
import type { Approval, ApprovalRequest, Database, TenantTx } from '@gatehouse/db';
import { appendAuditEvent } from '../audit/append-audit-event';
import { auditSafeText } from '../audit/audit-safe-text';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { conflict, ValidationProblemError } from '../shared/command-problems';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { identityAuditData } from '../approval-requests/approval-identity-audit';
import { requestNotOpen } from './approval-problems';
import { findVisibleRequest, fourEyesOf } from './approval-visibility';
import { identityOfRow } from '../effective-view/activation-inputs';
import { toApprovalView } from './approval-views';
import { deciderOf } from './decider-mapping';
import { auditRefusedDecision, problemOfRefusal, type DecideRefusal } from './decision-refusal';
import { requestSourceStateOf } from './request-source-state';
import { EffectiveView } from '../effective-view/effective-view.service';
import { Inject } from '@nestjs/common';
import { CatalogRefreshProducer } from '../catalog-refresh-queue/catalog-refresh-producer';
import { catalogTopicOf } from '../commands/long-poll/catalog-topic';
import { CHANGE_NOTIFIER, type ChangeNotifier } from '../commands/long-poll/change-notifier.port';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

type Input = CommandInput<typeof decideApprovalRequest>;

/**
 * What stands in for the fingerprint and identity of an entry that is gone or no longer resolves: never equal
 * to what was reviewed (identity keys are `aid:v1:<hex>`), so the review check reports both as changed.
 */
const NOTHING_NOW = '(the server is gone from this view or no longer resolves)';

type Outcome =
  | { readonly ok: true; readonly approval: Approval }
  | { readonly ok: false; readonly request: ApprovalRequest; readonly refusal: DecideRefusal };

/** A denial says why (the person asking again must learn what to change); an approval may. */
function reasonOf(input: Input): string | null {
  if (input.reason !== undefined) return input.reason;
  if (input.decision === 'deny')
    throw new ValidationProblemError(
      [{ path: 'reason', message: 'required to deny' }],
      'Say why you deny it: whoever asks again reads it.',
    );
  return null;
}

function expiryOf(input: Input, now: Date): Date | null {
  if (input.expiresAt === undefined) return null;
  const expiresAt = new Date(input.expiresAt);
  if (expiresAt.getTime() <= now.getTime())
    throw new ValidationProblemError([{ path: 'expiresAt', message: 'must be in the future' }]);
  return expiresAt;
}

/**
 * `approvals.requests.decide`: approves or denies exactly what was reviewed. The request's view is resolved
 * again now; `canDecide` checks who decides (a person, the scope, the role, four-eyes) and that the entry is
 * still what the decider saw (compare-and-swap on fingerprint and identity). A refusal is audited in its own
 * transaction and thrown; a decision records the approval, closes the request (compare-and-swap on its state
 * and identity) and is audited with the full identity, all in one transaction.
 */
@HandlesCommand(decideApprovalRequest)
export class DecideApprovalRequestUseCase implements UseCaseFor<typeof decideApprovalRequest> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(EffectiveView) private readonly views: EffectiveView,
    @Inject(CatalogRefreshProducer) private readonly refreshes: CatalogRefreshProducer,
    @Inject(CHANGE_NOTIFIER) private readonly changes: ChangeNotifier,
  ) {}

  async execute({ principal, input }: UseCaseArgs<Input>) {
    const now = new Date();
    const expiresAt = expiryOf(input, now);
    const reason = reasonOf(input);
    const outcome = await this.db.withTenant(principal.tenantId, async (tx): Promise<Outcome> => {
      const request = await findVisibleRequest(tx, principal, input.requestId);
      if (request.status !== 'open') throw requestNotOpen(request.status);
      const authority = await this.authorityOf(tx, principal, request, input);
      if (!authority.ok) return { ok: false, request, refusal: authority };
      const { deciderUserId } = authority;
      const closed = await tx.approvalRequest.updateMany({
        where: { id: request.id, status: 'open', identityKey: input.seenIdentityKey },
        data: {
          status: 'decided',
          openKey: null,
          closedAt: now,
          closedBy: deciderUserId,
          closeReason: 'decided',
        },
      });
      if (closed.count !== 1)
        throw conflict('The request was decided or replaced meanwhile; read the queue again.');

      const approval = await tx.approval.create({
        data: {
          id: randomUUID(),
          tenantId: principal.tenantId,
          workspaceId: request.workspaceId,
          requestId: request.id,
          identityKey: request.identityKey,
          serverName: request.serverName,
          sourceTier: request.sourceTier,
          sourceOrigin: request.sourceOrigin,
          definitionFingerprint: request.definitionFingerprint,
          securityIdentity: request.securityIdentity,
          principalUserId: request.principalUserId,
          repositoryIdentity: request.repositoryIdentity,
          workspaceGeneration: request.workspaceGeneration,
          projection: request.projection ?? {},
          decision: input.decision === 'approve' ? 'approved' : 'denied',
          decidedBy: deciderUserId,
          decidedAt: now,
          decisionReason: reason,
          expiresAt,
        },
      });
      await appendAuditEvent(tx, {
        actor: auditActorOf(principal),
        action: 'approvals.requests.decided',
        target: { type: 'approval_request', id: request.id },
        outcome: 'success',
        data: {
          workspaceId: request.workspaceId,
          approvalId: approval.id,
          decision: approval.decision,
          // The decider's words, as the audit guard takes tenant-written text (a marker where it would refuse it).
          reason: reason === null ? null : auditSafeText(reason),
          expiresAt: approval.expiresAt?.toISOString() ?? null,
          previousApprovalId: request.previousApprovalId,
          ...identityAuditData(identityOfRow(request)),
        },
      });
      // An approved server has a catalog to discover: enqueued once this decision commits (decision 0076).
      if (approval.decision === 'approved')
        this.refreshes.afterCommit(
          tx,
          {
            tenantId: principal.tenantId,
            workspaceId: approval.workspaceId,
            serverName: approval.serverName,
            principalUserId: approval.principalUserId,
          },
          'approval_decided',
        );
      return { ok: true, approval };
    });
    if (outcome.ok) {
      // An approval is no ledger event (it ends no lease), but it changes the catalog: pending discovery now.
      if (outcome.approval.decision === 'approved')
        await this.changes.publish(catalogTopicOf(outcome.approval.workspaceId)).catch(() => undefined);
      return toApprovalView(outcome.approval);
    }
    await auditRefusedDecision(this.db, {
      principal,
      request: outcome.request,
      verb: input.decision,
      seenFingerprint: input.seenFingerprint,
      seenIdentityKey: input.seenIdentityKey,
      refusal: outcome.refusal,
    });
    throw problemOfRefusal(outcome.refusal);
  }

  /** Whether this decider may make this decision on this request now, and if not, why. */
  private async authorityOf(
    tx: TenantTx,
    principal: UseCaseArgs<Input>['principal'],
    request: ApprovalRequest,
    input: Input,
  ): Promise<DecisionAuthority | DecideRefusal> {
    const workspace = await tx.workspace.findUniqueOrThrow({ where: { id: request.workspaceId } });
    const evaluated = await this.views.ofWorkspace(tx, {
      tenantId: principal.tenantId,
      workspace,
      userId: request.principalUserId,
    });
    const current = evaluated.entries.find((item) => item.entry.name === request.serverName);
    const entry = current?.activationEntry;
    const authority = canDecide({
      decider: deciderOf(principal),
      request: {
        verb: input.decision,
        source: { tier: request.sourceTier, origin: request.sourceOrigin },
        authorUserIds: request.authorUserIds,
        seenFingerprint: input.seenFingerprint,
        currentFingerprint: entry?.usable === true ? entry.fingerprint : NOTHING_NOW,
        seenIdentity: input.seenIdentityKey,
        currentIdentity: current?.identity?.key ?? NOTHING_NOW,
      },
      fourEyes: await fourEyesOf(tx, principal.tenantId),
    });
    if (!authority.ok && authority.reason === 'changed_since_review') {
      // The entry is gone or different because its source cannot be read: say that, not "read it again".
      const source = await requestSourceStateOf(tx, this.cipher, request);
      if (source !== 'readable') return { ok: false, reason: 'source_unreadable', source };
    }
    if (!authority.ok) return authority;
    // The entry is what the decider saw, but the request names something else (an older identity not yet
    // superseded): the decision would not be about this request's identity.
    if (input.seenIdentityKey !== request.identityKey)
      return { ok: false, reason: 'changed_since_review', changed: ['identity'] };
    return authority;
  }
}
