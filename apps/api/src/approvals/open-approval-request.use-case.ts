import { type CommandInput, openApprovalRequest } from '@gatehouse/commands';
import type { Database } from '@gatehouse/db';
import { auditActorOf } from '../auth/audit-actor';
import type { UseCaseArgs, UseCaseFor } from '../commands/command-handler';
import { notFound } from '../shared/command-problems';
import { findVisibleWorkspace } from '../auth/workspace-visibility';
import { callerUserId } from '../auth/principal';
import { DefinitionCipher } from '../effective-view/definition-cipher';
import { notApprovable } from './approval-problems';
import { openApprovalRequests } from '../approval-requests/approval-requests-opener';
import { toApprovalRequestView } from './approval-views';
import { fourEyesOf } from './approval-visibility';
import { EffectiveView } from '../effective-view/effective-view.service';
import type { EvaluatedEntry } from '../effective-view/effective-views';
import { Inject } from '@nestjs/common';
import { DATABASE } from '../infrastructure/infrastructure-tokens';
import { HandlesCommand } from '../commands/registry/handles-command-decorator';

/** Refuses (409 `not_approvable`) a server a person could not approve in this view right now. */
function assertApprovable(item: EvaluatedEntry): void {
  const state = {
    activationState: item.decision.state,
    reasons: item.decision.reasons,
    entryStatus: item.entry.status,
  };
  if (item.identity === null) {
    throw notApprovable(
      item.decision.reasons.includes('principal_required')
        ? 'This server depends on a user’s own definitions or variables: ask for review in your own view.'
        : 'This server does not resolve here (an unset variable, a disabled or rejected entry): nothing exact to review.',
      state,
    );
  }
  if (item.decision.state === 'untrusted')
    throw notApprovable('The workspace is not trusted for this source: trust it first.', state);
  if (item.decision.state === 'approved') throw notApprovable('This server is approved as it is now.', state);
}

/**
 * `approvals.requests.open`: asks for review of one server as it is now, for the workspace alone or for the
 * caller. Returns the open request for its identity, new or already there (the opener keeps one per identity):
 * in full to callers who may read requests, as a receipt to everyone else (docs/architecture/approvals.md).
 */
@HandlesCommand(openApprovalRequest)
export class OpenApprovalRequestUseCase implements UseCaseFor<typeof openApprovalRequest> {
  constructor(
    @Inject(DATABASE) private readonly db: Database,
    @Inject(DefinitionCipher) private readonly cipher: DefinitionCipher,
    @Inject(EffectiveView) private readonly views: EffectiveView,
  ) {}

  async execute({ principal, input }: UseCaseArgs<CommandInput<typeof openApprovalRequest>>) {
    const { tenantId } = principal;
    return this.db.withTenant(tenantId, async (tx) => {
      const workspace = await findVisibleWorkspace(tx, principal, input.workspaceId);
      const userId = input.view === 'principal' ? callerUserId(principal) : null;
      const evaluated = await this.views.ofWorkspace(tx, { tenantId, workspace, userId });
      const item = evaluated.entries.find((entry) => entry.entry.name === input.serverName);
      if (item === undefined) throw notFound('server in this view');
      assertApprovable(item);
      const [opened] = await openApprovalRequests(tx, this.cipher, {
        tenantId,
        views: [{ workspace, userId }],
        trigger: 'review_requested',
        // Asking for review changes nothing, so the caller authors nothing: the opener records whoever wrote the
        // source and the variables the entry reads (four-eyes keeps them from approving it).
        authorUserId: null,
        actor: auditActorOf(principal),
        serverName: input.serverName,
      });
      if (opened === undefined) {
        // assertApprovable and the opener agree on what needs review; reaching this is a bug, not a client error.
        throw new Error('the opener opened nothing for an approvable entry');
      }
      const view = toApprovalRequestView(opened.request, null, await fourEyesOf(tx, tenantId));
      return principal.scopes.includes('approvals:read') ? view : receiptOf(view);
    });
  }
}

type RequestView = ReturnType<typeof toApprovalRequestView>;

/**
 * What a caller who may not read approval requests (no `approvals:read`) learns from asking for review: which
 * request, for which identity (their own effective view shows it already), and its state. The approvers' record
 * (the projection under review, who authored the change, what changed since the last approval, who decided)
 * stays with `approvals.requests.get`.
 */
function receiptOf(view: RequestView): RequestView {
  return {
    ...view,
    projection: {},
    previousApprovalId: null,
    changes: [],
    authorUserIds: [],
    closedBy: null,
    approvalId: null,
    decisionReason: null,
  };
}
