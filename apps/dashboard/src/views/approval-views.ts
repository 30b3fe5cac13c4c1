import type {
  activationView,
  APPROVAL_LIST_STATES,
  APPROVAL_REQUEST_LIST_STATUSES,
  APPROVAL_REQUEST_STATUSES,
  approvalIdentityView,
  approvalRequestView,
  approvalView,
  hostPolicyView,
  hostPolicyWithCeiling,
  poolCeilingView,
  projectionChangeView,
} from '@gatehouse/contracts';
import type { z } from 'zod';
import type { ReadView } from './api-views';

// The approval and host-policy shapes the dashboard reads from the API, as the API declares them
// (@gatehouse/contracts, decision 0063). Projections and diffs are the API's redacted ones: a masked secret
// arrives masked, and nothing here can hold more than the API chose to send.

export {
  ACTIVATION_STATES,
  APPROVAL_REQUEST_TRIGGERS,
  type ActivationState,
  type ApprovalRequestTrigger,
  type StaleField,
} from '@gatehouse/contracts';

export type ActivationView = ReadView<z.output<typeof activationView>>;
export type ApprovalIdentityView = ReadView<z.output<typeof approvalIdentityView>>;
export type ProjectionChangeView = ReadView<z.output<typeof projectionChangeView>>;
export type ApprovalRequestStatus = (typeof APPROVAL_REQUEST_STATUSES)[number];
export type ApprovalRequestView = ReadView<z.output<typeof approvalRequestView>>;
export type ApprovalView = ReadView<z.output<typeof approvalView>>;
export type ApprovalListState = (typeof APPROVAL_LIST_STATES)[number];
export type ApprovalRequestListStatus = (typeof APPROVAL_REQUEST_LIST_STATUSES)[number];

/** An exact argv prefix: a child's argv must start with these strings, in order. */
export type ArgvPrefix = readonly string[];

export type HostPolicyView = ReadView<z.output<typeof hostPolicyView>>;
/** A pool's ceiling as a tenant may see it (never the operator's denylist, uid/gid or loopback setting). */
export type PoolCeilingView = ReadView<z.output<typeof poolCeilingView>>;
export type HostPolicyWithCeilingView = ReadView<z.output<typeof hostPolicyWithCeiling>>;
