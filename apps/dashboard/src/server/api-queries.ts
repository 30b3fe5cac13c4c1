import {
  auditEventPage,
  auditHeadView,
  auditVerificationView,
  maintainerPage,
  memberPage,
  tenantView,
  tokenPage,
  workspacePage,
  workspaceView,
} from '@gatehouse/contracts';
import { callApi, type ApiResult } from './api-client';
import type {
  AuditEventView,
  AuditHeadView,
  AuditVerificationView,
  MaintainerView,
  MemberView,
  Page,
  TenantView,
  TokenView,
  WorkspaceView,
} from '../views/api-views';

// The reads the pages make, one function per API command (REST paths of libs/commands' declarations), each
// answer parsed with the command's output schema from @gatehouse/contracts.

export interface ListArgs {
  readonly cursor?: string | undefined;
  readonly limit?: number;
}

export function getTenant(): Promise<ApiResult<TenantView>> {
  return callApi({ method: 'GET', path: '/v1/tenant', answer: tenantView });
}

export function listWorkspaces(args: ListArgs = {}): Promise<ApiResult<Page<WorkspaceView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/workspaces',
    query: { cursor: args.cursor, limit: args.limit },
    answer: workspacePage,
  });
}

export function getWorkspace(workspaceId: string): Promise<ApiResult<WorkspaceView>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}`,
    answer: workspaceView,
  });
}

export function listMaintainers(workspaceId: string): Promise<ApiResult<Page<MaintainerView>>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/maintainers`,
    query: { limit: 200 },
    answer: maintainerPage,
  });
}

export function listMembers(args: ListArgs = {}): Promise<ApiResult<Page<MemberView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/members',
    query: { cursor: args.cursor, limit: args.limit },
    answer: memberPage,
  });
}

export function listTokens(
  args: ListArgs & { includeRevoked?: boolean } = {},
): Promise<ApiResult<Page<TokenView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/tokens',
    query: {
      cursor: args.cursor,
      limit: args.limit,
      includeRevoked: args.includeRevoked ? 'true' : undefined,
    },
    answer: tokenPage,
  });
}

export interface AuditFilters {
  readonly actorId?: string | undefined;
  readonly action?: string | undefined;
  readonly targetType?: string | undefined;
  /** One of AUDIT_TARGET_KINDS: what the row is about (an overlay, a member), as action families. */
  readonly targetKind?: string | undefined;
  readonly targetId?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
}

export function listAuditEvents(
  args: ListArgs & AuditFilters = {},
): Promise<ApiResult<Page<AuditEventView>>> {
  return callApi({ method: 'GET', path: '/v1/audit-events', query: { ...args }, answer: auditEventPage });
}

export function getAuditHead(): Promise<ApiResult<AuditHeadView>> {
  return callApi({ method: 'GET', path: '/v1/audit-events/head', answer: auditHeadView });
}

export function verifyAuditChain(): Promise<ApiResult<AuditVerificationView>> {
  return callApi({ method: 'GET', path: '/v1/audit-events/verify', answer: auditVerificationView });
}
