import {
  approvalPage,
  approvalRequestPage,
  approvalRequestView,
  hostPolicyWithCeiling,
} from '@gatehouse/contracts';
import type { Page } from '../views/api-views';
import type {
  ApprovalListState,
  ApprovalRequestListStatus,
  ApprovalRequestView,
  ApprovalView,
  HostPolicyWithCeilingView,
} from '../views/approval-views';
import { callApi, type ApiResult } from './api-client';
import type { ListArgs } from './api-queries';

// The reads of the Approvals and Host policy pages, one function per API command (libs/commands'
// approval.command.ts and host-policy.command.ts), each answer parsed with its schema from @gatehouse/contracts.

export interface ApprovalFilters {
  readonly workspaceId?: string | undefined;
  readonly serverName?: string | undefined;
}

export function listApprovalRequests(
  args: ListArgs & ApprovalFilters & { status: ApprovalRequestListStatus },
): Promise<ApiResult<Page<ApprovalRequestView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/approval-requests',
    query: {
      status: args.status,
      workspaceId: args.workspaceId,
      serverName: args.serverName,
      cursor: args.cursor,
      limit: args.limit,
    },
    answer: approvalRequestPage,
  });
}

export function getApprovalRequest(requestId: string): Promise<ApiResult<ApprovalRequestView>> {
  return callApi({
    method: 'GET',
    path: `/v1/approval-requests/${encodeURIComponent(requestId)}`,
    answer: approvalRequestView,
  });
}

export function listApprovals(
  args: ListArgs & ApprovalFilters & { state?: ApprovalListState } = {},
): Promise<ApiResult<Page<ApprovalView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/approvals',
    query: {
      state: args.state,
      workspaceId: args.workspaceId,
      serverName: args.serverName,
      cursor: args.cursor,
      limit: args.limit,
    },
    answer: approvalPage,
  });
}

export function getHostPolicy(): Promise<ApiResult<HostPolicyWithCeilingView>> {
  return callApi({ method: 'GET', path: '/v1/host-policy', answer: hostPolicyWithCeiling });
}
