import {
  getHostPolicyInput,
  hostPolicyView,
  hostPolicyWithCeiling,
  poolCeilingView,
  putHostPolicyInput,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';

// A tenant's HostPolicy (docs/architecture/approvals.md): what it asks of the worker pools open to it. It can
// only narrow the operator's ceiling (WORKER_POOLS); the use case refuses a choice outside every open pool's
// ceiling, and at lease time the choice is intersected with the asking pool's ceiling. The schemas:
// @gatehouse/contracts.

export { hostPolicyView, hostPolicyWithCeiling, poolCeilingView };

export const getHostPolicy = defineCommand({
  name: 'hostPolicy.get',
  summary: "The tenant's HostPolicy and the ceiling of the pools open to it (owners and admins)",
  scope: 'tenant:write',
  kind: 'query',
  input: getHostPolicyInput,
  output: hostPolicyWithCeiling,
  http: { method: 'GET', path: '/v1/host-policy' },
  graphql: { field: 'hostPolicy' },
  problems: [],
});

export const putHostPolicy = defineCommand({
  name: 'hostPolicy.put',
  summary:
    "Replace the tenant's HostPolicy; refused when outside every open pool's ceiling (owners and admins)",
  scope: 'tenant:write',
  kind: 'mutation',
  input: putHostPolicyInput,
  output: hostPolicyWithCeiling,
  http: { method: 'PUT', path: '/v1/host-policy' },
  graphql: { field: 'putHostPolicy' },
  problems: ['outside_operator_ceiling'],
});
