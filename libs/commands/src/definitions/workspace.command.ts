import {
  addWorkspaceMaintainerInput,
  bumpWorkspaceGenerationInput,
  createWorkspaceInput,
  getWorkspaceInput,
  listWorkspaceMaintainersInput,
  listWorkspacesInput,
  maintainerPage,
  maintainerRemoval,
  maintainerView,
  removeWorkspaceMaintainerInput,
  renameWorkspaceInput,
  repositoryIdentity,
  setWorkspaceTrustInput,
  workspacePage,
  workspaceView,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ, mcpWrite } from '../mcp-offers';

export { maintainerView, repositoryIdentity, workspaceView };

export const listWorkspaces = defineCommand({
  name: 'workspaces.list',
  summary: 'Workspaces of the tenant',
  scope: 'workspaces:read',
  kind: 'query',
  input: listWorkspacesInput,
  output: workspacePage,
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
  input: getWorkspaceInput,
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
  input: createWorkspaceInput,
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
  input: renameWorkspaceInput,
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
  input: setWorkspaceTrustInput,
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
  input: bumpWorkspaceGenerationInput,
  output: workspaceView,
  http: { method: 'POST', path: '/v1/workspaces/:workspaceId/generation' },
  graphql: { field: 'bumpWorkspaceGeneration' },
  problems: ['not_found', 'forbidden'],
});

export const listWorkspaceMaintainers = defineCommand({
  name: 'workspaces.maintainers.list',
  summary: "The workspace's maintainers (they write its project-tier sources)",
  scope: 'workspaces:read',
  kind: 'query',
  input: listWorkspaceMaintainersInput,
  output: maintainerPage,
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
  input: addWorkspaceMaintainerInput,
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
  input: removeWorkspaceMaintainerInput,
  output: maintainerRemoval,
  http: { method: 'DELETE', path: '/v1/workspaces/:workspaceId/maintainers/:userId' },
  graphql: { field: 'removeWorkspaceMaintainer' },
  problems: ['not_found', 'forbidden'],
});
