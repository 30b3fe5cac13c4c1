import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ } from '../mcp-offers';
import { displayName, isoDateTime, uuid } from '../common.schemas';

export const tenantView = z
  .object({ id: uuid, slug: z.string(), name: z.string(), createdAt: isoDateTime })
  .meta({ title: 'Tenant' });

export const getTenant = defineCommand({
  name: 'tenant.get',
  summary: "The caller's own tenant",
  scope: 'tenant:read',
  kind: 'query',
  input: z.strictObject({}),
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
  input: z.strictObject({ name: displayName }),
  output: tenantView,
  http: { method: 'PATCH', path: '/v1/tenant' },
  graphql: { field: 'renameTenant' },
  problems: ['not_found'],
});
