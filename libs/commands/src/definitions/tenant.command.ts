import { getTenantInput, renameTenantInput, tenantView } from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';

export { tenantView };

export const getTenant = defineCommand({
  name: 'tenant.get',
  summary: "The caller's own tenant",
  scope: 'tenant:read',
  kind: 'query',
  input: getTenantInput,
  output: tenantView,
  http: { method: 'GET', path: '/v1/tenant' },
  graphql: { field: 'tenant' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found'],
});

export const renameTenant = defineCommand({
  name: 'tenant.rename',
  summary: "Rename the caller's own tenant",
  scope: 'tenant:write',
  kind: 'mutation',
  input: renameTenantInput,
  output: tenantView,
  http: { method: 'PATCH', path: '/v1/tenant' },
  graphql: { field: 'renameTenant' },
  problems: ['not_found'],
});
