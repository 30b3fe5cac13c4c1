import { invitationPage } from '@gatehouse/contracts';
import type { Page } from '../views/api-views';
import type { InvitationView } from '../views/invitation-views';
import { callApi, type ApiResult } from './api-client';

export function listPendingInvitations(args: {
  cursor?: string | undefined;
  limit?: number | undefined;
}): Promise<ApiResult<Page<InvitationView>>> {
  return callApi({
    method: 'GET',
    path: '/v1/invitations',
    query: { cursor: args.cursor, limit: args.limit, status: 'pending' },
    answer: invitationPage,
  });
}
