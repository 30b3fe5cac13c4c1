import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ, mcpWrite } from '../mcp-offers';
import {
  isoDateTime,
  notTokenShaped,
  page,
  pageInput,
  resourceName,
  TOKEN_SHAPED_MESSAGE,
  uuid,
} from '../common.schemas';

// Audited when a workspace is created (and carried into approval events): token-shaped text is a 400, not a 500.
export const repositoryIdentity = z.string().trim().min(1).max(500).refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);

export const workspaceView = z
  .object({
    id: uuid,
    name: z.string(),
    repositoryIdentity: z.string().nullable(),
    generation: z.number().int(),
    trusted: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ title: 'Workspace' });

export const listWorkspaces = defineCommand({
  name: 'workspaces.list',
  summary: 'Workspaces of the tenant',
  scope: 'workspaces:read',
  kind: 'query',
  input: z.strictObject({ ...pageInput }),
  output: page(workspaceView).meta({ title: 'WorkspacePage' }),
  http: { method: 'GET', path: '/v1/workspaces' },
  graphql: { field: 'workspaces' },
  read: { etag: true },
  surfaces: { mcp: MCP_READ },
  problems: ['bad_cursor'],
});

export const getWorkspace = defineCommand({
  name: 'workspaces.get',
  summary: 'One workspace',
  scope: 'workspaces:read',
  kind: 'query',
  input: z.strictObject({ workspaceId: uuid }),
  output: workspaceView,
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId' },
  graphql: { field: 'workspace' },
  read: { etag: true },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});

export const createWorkspace = defineCommand({
  name: 'workspaces.create',
  summary: 'Create a workspace (untrusted until an admin marks it trusted)',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ name: resourceName, repositoryIdentity: repositoryIdentity.optional() }),
  output: workspaceView,
  http: { method: 'POST', path: '/v1/workspaces', successStatus: 201 },
  graphql: { field: 'createWorkspace' },
  surfaces: { mcp: mcpWrite({ destructive: false, idempotent: false }) },
  problems: ['forbidden'],
});

export const renameWorkspace = defineCommand({
  name: 'workspaces.rename',
  summary: 'Rename a workspace',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, name: resourceName }),
  output: workspaceView,
  http: { method: 'PATCH', path: '/v1/workspaces/:workspaceId' },
  graphql: { field: 'renameWorkspace' },
  surfaces: { mcp: mcpWrite({ destructive: false, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const setWorkspaceTrust = defineCommand({
  name: 'workspaces.setTrust',
  summary: 'Mark a workspace trusted or untrusted (untrusted refuses project, local and plugin sources)',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, trusted: z.boolean() }),
  output: workspaceView,
  http: { method: 'PUT', path: '/v1/workspaces/:workspaceId/trust' },
  graphql: { field: 'setWorkspaceTrust' },
  problems: ['not_found', 'forbidden'],
});

export const bumpWorkspaceGeneration = defineCommand({
  name: 'workspaces.bumpGeneration',
  summary: 'Start a new generation: every approval bound to the old one becomes stale',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, expectedGeneration: z.number().int().min(1).optional() }),
  output: workspaceView,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/generation' },
  graphql: { field: 'bumpWorkspaceGeneration' },
  problems: ['not_found', 'forbidden'],
});

export const maintainerView = z
  .object({ userId: uuid, email: z.string(), displayName: z.string(), since: isoDateTime })
  .meta({ title: 'WorkspaceMaintainer' });

export const listWorkspaceMaintainers = defineCommand({
  name: 'workspaces.maintainers.list',
  summary: "The workspace's maintainers (they write its project-tier sources)",
  scope: 'workspaces:read',
  kind: 'query',
  input: z.strictObject({ workspaceId: uuid, ...pageInput }),
  output: page(maintainerView).meta({ title: 'WorkspaceMaintainerPage' }),
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/maintainers' },
  graphql: { field: 'workspaceMaintainers' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'bad_cursor'],
});

export const addWorkspaceMaintainer = defineCommand({
  name: 'workspaces.maintainers.add',
  summary: 'Make a tenant member a maintainer of the workspace',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, userId: uuid }),
  output: maintainerView,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/maintainers', successStatus: 201 },
  graphql: { field: 'addWorkspaceMaintainer' },
  problems: ['not_found', 'forbidden'],
});

export const removeWorkspaceMaintainer = defineCommand({
  name: 'workspaces.maintainers.remove',
  summary: 'Remove a maintainer from the workspace',
  scope: 'workspaces:write',
  kind: 'mutation',
  input: z.strictObject({ workspaceId: uuid, userId: uuid }),
  output: z.object({ removed: z.boolean() }).meta({ title: 'MaintainerRemoval' }),
  http: { method: 'DELETE', path: '/v1/workspaces/:workspaceId/maintainers/:userId' },
  graphql: { field: 'removeWorkspaceMaintainer' },
  problems: ['not_found', 'forbidden'],
});
