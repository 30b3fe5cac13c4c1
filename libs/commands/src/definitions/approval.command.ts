import {
  activationView,
  APPROVAL_REQUEST_TRIGGERS,
  approvalIdentityView,
  approvalPage,
  approvalRequestPage,
  approvalRequestView,
  approvalView,
  decideApprovalRequestInput,
  definitionServerName,
  getApprovalRequestInput,
  listApprovalRequestsInput,
  listApprovalsInput,
  openApprovalRequestInput,
  projectionChangeView,
  revokeApprovalInput,
  uuid,
} from '@gatehouse/contracts';
import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ, mcpWrite } from '../mcp-offers';

// The approval workflow (docs/architecture/approvals.md). Requests are opened by events (a source written, a
// variable or overlay changed, a generation bump, trust, a lease refused as pending, someone asking for
// review), never by a read. A decision carries what the approver saw (fingerprint and identity key) and is
// refused if the definition changed meanwhile. Projections are the redacted ones: no output here carries a
// secret value. The schemas the dashboard reads are declared in @gatehouse/contracts (decision 0063).

export {
  APPROVAL_REQUEST_TRIGGERS,
  approvalIdentityView,
  approvalRequestView,
  approvalView,
  projectionChangeView,
};

export const listApprovalRequests = defineCommand({
  name: 'approvals.requests.list',
  summary: 'Approval requests, newest first: open ones (the queue) by default, or closed ones (history)',
  scope: 'approvals:read',
  kind: 'query',
  input: listApprovalRequestsInput,
  output: approvalRequestPage,
  http: { method: 'GET', path: '/v1/approval-requests' },
  graphql: { field: 'approvalRequests' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'bad_cursor'],
});

export const getApprovalRequest = defineCommand({
  name: 'approvals.requests.get',
  summary: 'One approval request with its projection and what changed since the last approval',
  scope: 'approvals:read',
  kind: 'query',
  input: getApprovalRequestInput,
  output: approvalRequestView,
  http: { method: 'GET', path: '/v1/approval-requests/:requestId' },
  graphql: { field: 'approvalRequest' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});

export const openApprovalRequest = defineCommand({
  name: 'approvals.requests.open',
  summary:
    'Ask for review of a server as it is now (for the workspace alone, or for the caller); returns the open ' +
    'request for its identity if there is one already',
  scope: 'definitions:read',
  kind: 'mutation',
  input: openApprovalRequestInput,
  output: approvalRequestView,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/approval-requests', successStatus: 201 },
  graphql: { field: 'openApprovalRequest' },
  surfaces: { mcp: mcpWrite({ destructive: false, idempotent: true }) },
  problems: ['not_found', 'forbidden', 'not_approvable'],
});

export const decideApprovalRequest = defineCommand({
  name: 'approvals.requests.decide',
  summary:
    'Approve or deny exactly what was reviewed: refused (409) if the definition changed since; with four-eyes ' +
    'on, the author of the change cannot approve it',
  scope: 'approvals:decide',
  kind: 'mutation',
  input: decideApprovalRequestInput,
  output: approvalView,
  http: { method: 'POST', path: '/v1/approval-requests/:requestId/decision', successStatus: 201 },
  graphql: { field: 'decideApprovalRequest' },
  problems: [
    'not_found',
    'forbidden',
    'request_not_open',
    'changed_since_review',
    'source_unreadable',
    'four_eyes_author',
    'decider_not_human',
    'role_cannot_decide',
  ],
});

export const listApprovals = defineCommand({
  name: 'approvals.list',
  summary: 'Recorded decisions (approvals and denials), newest first',
  scope: 'approvals:read',
  kind: 'query',
  input: listApprovalsInput,
  output: approvalPage,
  http: { method: 'GET', path: '/v1/approvals' },
  graphql: { field: 'approvals' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'bad_cursor'],
});

export const revokeApproval = defineCommand({
  name: 'approvals.revoke',
  summary: 'Revoke a decision: from now on it no longer holds (owners and admins)',
  scope: 'approvals:decide',
  kind: 'mutation',
  input: revokeApprovalInput,
  output: approvalView,
  http: { method: 'POST', path: '/v1/approvals/:approvalId/revoke' },
  graphql: { field: 'revokeApproval' },
  problems: ['not_found', 'forbidden', 'already_revoked'],
});

/** The URL check as a tenant sees it: one class whatever the cause (the detail goes to the operator's logs). */
export const destinationCheckView = z
  .object({ result: z.enum(['admitted', 'destination_refused', 'not_applicable']) })
  .meta({ title: 'DestinationCheck' });

/** Whether a pool open to the tenant may run this stdio server under the intersected host policy. */
export const stdioAuthorityView = z
  .object({
    pool: z.string(),
    result: z.enum(['allowed', 'refused', 'not_applicable']),
    /**
     * Why refused: `stdio_not_allowed_on_pool`, `nul_in_launch`, `command_not_allowed`,
     * `command_outside_ceiling`, `env_key_not_allowed`, `cwd_outside_allowed_roots`, `no_allowed_root`,
     * `header_helpers_not_allowed_on_pool` (the check in @gatehouse/activation).
     */
    reason: z.string().nullable(),
    /**
     * With `env_key_not_allowed`: the first env NAME the definition sets that the pool's allowlist (narrowed by
     * the tenant's HostPolicy) does not allow. Names are not secret; values never appear. Else null.
     */
    key: z.string().nullable(),
  })
  .meta({ title: 'StdioAuthority' });

export const checkAdmission = defineCommand({
  name: 'admission.check',
  summary:
    'The decision a worker would get before a lease, for a server in a workspace (and optionally a principal): ' +
    'activation, destination and stdio authority (owners and admins)',
  scope: 'tenant:write',
  kind: 'query',
  input: z.strictObject({
    workspaceId: uuid,
    serverName: definitionServerName,
    /** Decide for this user (per-user entries); omitted: for the workspace alone. */
    principalUserId: uuid.optional(),
  }),
  output: z
    .object({
      workspaceId: uuid,
      serverName: z.string(),
      principalUserId: uuid.nullable(),
      /** `unknown_server`: the view lists no server of that name. */
      found: z.boolean(),
      transport: z.enum(['stdio', 'http']).nullable(),
      fingerprint: z.string().nullable(),
      activation: activationView.nullable(),
      destination: destinationCheckView,
      stdio: z.array(stdioAuthorityView),
      /**
       * For http entries with a header helper: whether each open pool may run it (header helpers allowed on the
       * pool, and the helper's argv starts with one of the tenant's headerHelpers within the pool's ceiling).
       */
      headerHelper: z.array(stdioAuthorityView),
      /**
       * True when a lease would be granted on at least one pool: approved, and on one same pool the destination
       * is admitted (and the header helper, if any, allowed) or the stdio command allowed.
       */
      admissible: z.boolean(),
    })
    .meta({ title: 'AdmissionCheck' }),
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/admission-check' },
  graphql: { field: 'admissionCheck' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});
