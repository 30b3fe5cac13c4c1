import { gatewayActivityView } from '@gatehouse/contracts';
import type { GatewayActivityView } from '../views/gateway-views';
import { callApi, type ApiResult } from './api-client';

/**
 * `gateway.activity` (decision 0118): the workspace's open gateway sessions and its calls and refusals of the
 * last hour, as the gateway replicas last flushed them (a few seconds behind). Read on each page load.
 */
export function getGatewayActivity(workspaceId: string): Promise<ApiResult<GatewayActivityView>> {
  return callApi({
    method: 'GET',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/gateway-activity`,
    answer: gatewayActivityView,
  });
}
