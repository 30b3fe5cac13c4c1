import {
  clearDisableOverlayInput,
  definitionOriginName,
  definitionServerName,
  definitionSourceDeletion,
  definitionSourceList,
  definitionSourceSummary,
  definitionSourceView,
  definitionTier,
  definitionVariableList,
  definitionVariableName,
  definitionVariableScope,
  definitionVariableState,
  DEFINITION_TIERS,
  deleteDefinitionSourceInput,
  disableOverlayView,
  effectiveDefinitionEntry,
  effectiveDefinitions,
  getDefinitionSourceInput,
  getEffectiveDefinitionsInput,
  importDefinitionSourceInput,
  listDefinitionSourcesInput,
  listDefinitionVariablesInput,
  overlayScope,
  putDefinitionSourceInput,
  setDefinitionVariableInput,
  setDisableOverlayInput,
  unsetDefinitionVariableInput,
} from '@gatehouse/contracts';
import { defineCommand } from '../command';
import { MCP_READ, mcpWrite } from '../mcp-offers';

// Server definitions (docs/architecture/definitions.md): sources per tier, write-only variables, disable
// overlays and the effective view. No output here can carry a document, a variable value or an env/header
// value: sources are shown as redacted projections (built by @gatehouse/definitions), variables as "set or
// not". The schemas are declared in @gatehouse/contracts (decision 0063).

export {
  DEFINITION_TIERS,
  definitionOriginName,
  definitionServerName,
  definitionSourceSummary,
  definitionSourceView,
  definitionTier,
  definitionVariableName,
  definitionVariableScope,
  definitionVariableState,
  disableOverlayView,
  effectiveDefinitionEntry,
  overlayScope,
};

export const putDefinitionSource = defineCommand({
  name: 'definitions.sources.put',
  summary:
    'Create or replace a definition source with a whole `{ "mcpServers": … }` document. A value sent back as the ' +
    'projection showed it (with `[REDACTED]`) keeps the stored value. Never creates an approval.',
  scope: 'definitions:write',
  kind: 'mutation',
  input: putDefinitionSourceInput,
  output: definitionSourceView,
  http: { method: 'PUT', path: '/v1/definition-sources' },
  graphql: { field: 'putDefinitionSource' },
  surfaces: { mcp: mcpWrite({ destructive: true, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const importDefinitionSource = defineCommand({
  name: 'definitions.sources.import',
  summary:
    'Create or replace a definition source from the text of a `.mcp.json` file (as put; never approves)',
  scope: 'definitions:write',
  kind: 'mutation',
  input: importDefinitionSourceInput,
  output: definitionSourceView,
  http: { method: 'POST', path: '/v1/definition-sources/import' },
  graphql: { field: 'importDefinitionSource' },
  surfaces: { mcp: mcpWrite({ destructive: true, idempotent: false }) },
  problems: ['not_found', 'forbidden'],
});

export const getDefinitionSource = defineCommand({
  name: 'definitions.sources.get',
  summary: 'One definition source as redacted projections per entry, with its problems (never the document)',
  scope: 'definitions:read',
  kind: 'query',
  input: getDefinitionSourceInput,
  output: definitionSourceView,
  http: { method: 'GET', path: '/v1/definition-sources/:sourceId' },
  graphql: { field: 'definitionSource' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});

export const listDefinitionSources = defineCommand({
  name: 'definitions.sources.list',
  summary: "The sources the caller may read: tenant-wide ones, the workspace's, and the caller's own",
  scope: 'definitions:read',
  kind: 'query',
  input: listDefinitionSourcesInput,
  output: definitionSourceList,
  http: { method: 'GET', path: '/v1/definition-sources' },
  graphql: { field: 'definitionSources' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'bad_cursor'],
});

export const deleteDefinitionSource = defineCommand({
  name: 'definitions.sources.delete',
  summary: 'Delete a definition source',
  scope: 'definitions:write',
  kind: 'mutation',
  input: deleteDefinitionSourceInput,
  output: definitionSourceDeletion,
  http: { method: 'DELETE', path: '/v1/definition-sources/:sourceId' },
  graphql: { field: 'deleteDefinitionSource' },
  surfaces: { mcp: mcpWrite({ destructive: true, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const setDefinitionVariable = defineCommand({
  name: 'definitions.variables.set',
  summary: 'Set or replace a variable. Write-only: no API ever returns its value',
  scope: 'definitions:write',
  kind: 'mutation',
  input: setDefinitionVariableInput,
  output: definitionVariableState,
  http: { method: 'PUT', path: '/v1/definition-variables/:name' },
  graphql: { field: 'setDefinitionVariable' },
  problems: ['not_found', 'forbidden'],
});

export const unsetDefinitionVariable = defineCommand({
  name: 'definitions.variables.unset',
  summary: 'Unset a variable',
  scope: 'definitions:write',
  kind: 'mutation',
  input: unsetDefinitionVariableInput,
  output: definitionVariableState,
  http: { method: 'DELETE', path: '/v1/definition-variables/:name' },
  graphql: { field: 'unsetDefinitionVariable' },
  problems: ['not_found', 'forbidden'],
});

export const listDefinitionVariables = defineCommand({
  name: 'definitions.variables.list',
  summary: 'Variable NAMES of one holder, each set (never a value)',
  scope: 'definitions:read',
  kind: 'query',
  input: listDefinitionVariablesInput,
  output: definitionVariableList,
  http: { method: 'GET', path: '/v1/definition-variables' },
  graphql: { field: 'definitionVariables' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'bad_cursor'],
});

export const setDisableOverlay = defineCommand({
  name: 'definitions.overlays.set',
  summary:
    'Disable a server in a workspace, for everyone (scope workspace) or for the caller (scope user). ' +
    'A server the effective view does not list is refused',
  scope: 'definitions:write',
  kind: 'mutation',
  input: setDisableOverlayInput,
  output: disableOverlayView,
  http: { method: 'PUT', path: '/v1/workspaces/:workspaceId/disabled-servers/:serverName' },
  graphql: { field: 'setDisableOverlay' },
  surfaces: { mcp: mcpWrite({ destructive: false, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const clearDisableOverlay = defineCommand({
  name: 'definitions.overlays.clear',
  summary: 'Clear a disable overlay (the entry comes back unchanged)',
  scope: 'definitions:write',
  kind: 'mutation',
  input: clearDisableOverlayInput,
  output: disableOverlayView,
  http: { method: 'DELETE', path: '/v1/workspaces/:workspaceId/disabled-servers/:serverName' },
  graphql: { field: 'clearDisableOverlay' },
  surfaces: { mcp: mcpWrite({ destructive: false, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const getEffectiveDefinitions = defineCommand({
  name: 'definitions.effective',
  summary:
    'The effective server definitions of a workspace: for the workspace alone (managed, project, plugin) or for ' +
    'the caller (every tier, their variables and overlays)',
  scope: 'definitions:read',
  kind: 'query',
  input: getEffectiveDefinitionsInput,
  output: effectiveDefinitions,
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/effective-definitions' },
  graphql: { field: 'effectiveDefinitions' },
  read: { etag: true },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});
