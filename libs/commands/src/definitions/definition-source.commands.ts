import { z } from 'zod';
import { defineCommand } from '../command';
import { MCP_READ, mcpWrite } from '../mcp-offers';
import { isoDateTime, notTokenShaped, TOKEN_SHAPED_MESSAGE, uuid } from '../common.schemas';
import { activationView } from './activation.schemas';

// Server definitions (issue 5, part 2): sources per tier, write-only variables, disable overlays and the
// effective view. No output here can carry a document, a variable value or an env/header value: sources are
// shown as redacted projections (built by @gatehouse/definitions), variables as "set or not".

export const DEFINITION_TIERS = ['managed', 'local', 'project', 'user', 'plugin'] as const;
export const definitionTier = z.enum(DEFINITION_TIERS);

/** The `<name>` of `managed:<name>` and `plugin:<name>`. */
export const definitionOriginName = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'letters, digits, dot, underscore and dash; starts with a letter or digit')
  // The origin (`managed:<name>`) is audited with every write and carried into approval events.
  .refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);

/** A variable name as `${NAME}` references it. */
export const definitionVariableName = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'letters, digits and underscore; does not start with a digit')
  // Audited with every set and unset.
  .refine(notTokenShaped, TOKEN_SHAPED_MESSAGE);

export const definitionServerName = z.string().min(1).max(128);

/** Which source to write: the tier plus what names it (a name, a workspace, or both; user/local are the caller's). */
const sourceTarget = {
  tier: definitionTier,
  /** managed and plugin sources: the origin's name. */
  name: definitionOriginName.optional(),
  /** project and local sources: their workspace. */
  workspaceId: uuid.optional(),
  /** Optimistic concurrency: omitted creates (409 if the source exists); given updates that exact version. */
  expectedVersion: z.number().int().min(1).optional(),
};

const json = z.record(z.string(), z.unknown());

const sourceRef = z.object({ tier: definitionTier, origin: z.string() }).meta({ title: 'DefinitionSourceRef' });

export const definitionSourceView = z
  .object({
    id: uuid,
    tier: definitionTier,
    origin: z.string(),
    workspaceId: uuid.nullable(),
    ownerUserId: uuid.nullable(),
    readability: z.enum(['readable', 'unreadable']),
    version: z.number().int(),
    updatedAt: isoDateTime,
    /** Source problems: reasons and paths only. */
    problems: z.array(json),
    /** One per entry: name, state (valid | malformed | rejected), and its redacted projection or problems. */
    entries: z.array(json),
  })
  .meta({ title: 'DefinitionSource' });

export const definitionSourceSummary = z
  .object({
    id: uuid,
    tier: definitionTier,
    origin: z.string(),
    workspaceId: uuid.nullable(),
    ownerUserId: uuid.nullable(),
    readability: z.enum(['readable', 'unreadable']),
    version: z.number().int(),
    updatedAt: isoDateTime,
  })
  .meta({ title: 'DefinitionSourceSummary' });

export const putDefinitionSource = defineCommand({
  name: 'definitions.sources.put',
  summary:
    'Create or replace a definition source with a whole `{ "mcpServers": … }` document. A value sent back as the ' +
    'projection showed it (with `[REDACTED]`) keeps the stored value. Never creates an approval.',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({ ...sourceTarget, document: json }),
  output: definitionSourceView,
  http: { method: 'PUT', path: '/v1/definition-sources' },
  graphql: { field: 'putDefinitionSource' },
  surfaces: { mcp: mcpWrite({ destructive: true, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const importDefinitionSource = defineCommand({
  name: 'definitions.sources.import',
  summary: 'Create or replace a definition source from the text of a `.mcp.json` file (as put; never approves)',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({ ...sourceTarget, content: z.string().max(512 * 1024) }),
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
  input: z.strictObject({ sourceId: uuid }),
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
  input: z.strictObject({ workspaceId: uuid.optional() }),
  output: z.object({ items: z.array(definitionSourceSummary) }).meta({ title: 'DefinitionSourceList' }),
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
  input: z.strictObject({ sourceId: uuid, expectedVersion: z.coerce.number().int().min(1).optional() }),
  output: z.object({ deleted: z.boolean() }).meta({ title: 'DefinitionSourceDeletion' }),
  http: { method: 'DELETE', path: '/v1/definition-sources/:sourceId' },
  graphql: { field: 'deleteDefinitionSource' },
  surfaces: { mcp: mcpWrite({ destructive: true, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const definitionVariableScope = z.enum(['tenant', 'workspace', 'user']);

export const definitionVariableState = z
  .object({
    scope: definitionVariableScope,
    workspaceId: uuid.nullable(),
    name: z.string(),
    set: z.boolean(),
    updatedAt: isoDateTime.nullable(),
  })
  .meta({ title: 'DefinitionVariableState' });

const variableHolder = {
  scope: definitionVariableScope,
  /** workspace variables: their workspace. User variables are always the caller's own. */
  workspaceId: uuid.optional(),
};

export const setDefinitionVariable = defineCommand({
  name: 'definitions.variables.set',
  summary: 'Set or replace a variable. Write-only: no API ever returns its value',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({ ...variableHolder, name: definitionVariableName, value: z.string().max(16 * 1024) }),
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
  input: z.strictObject({ ...variableHolder, name: definitionVariableName }),
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
  input: z.strictObject(variableHolder),
  output: z.object({ items: z.array(definitionVariableState) }).meta({ title: 'DefinitionVariableList' }),
  http: { method: 'GET', path: '/v1/definition-variables' },
  graphql: { field: 'definitionVariables' },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden', 'bad_cursor'],
});

export const overlayScope = z.enum(['workspace', 'user']);

export const disableOverlayView = z
  .object({
    workspaceId: uuid,
    scope: overlayScope,
    serverName: z.string(),
    disabled: z.boolean(),
    reason: z.string().nullable(),
  })
  .meta({ title: 'DisableOverlay' });

export const setDisableOverlay = defineCommand({
  name: 'definitions.overlays.set',
  summary:
    'Disable a server in a workspace, for everyone (scope workspace) or for the caller (scope user). ' +
    'A server the effective view does not list is refused',
  scope: 'definitions:write',
  kind: 'mutation',
  input: z.strictObject({
    workspaceId: uuid,
    serverName: definitionServerName,
    scope: overlayScope,
    reason: z.string().trim().max(200).optional(),
  }),
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
  input: z.strictObject({ workspaceId: uuid, serverName: definitionServerName, scope: overlayScope }),
  output: disableOverlayView,
  http: { method: 'DELETE', path: '/v1/workspaces/:workspaceId/disabled-servers/:serverName' },
  graphql: { field: 'clearDisableOverlay' },
  surfaces: { mcp: mcpWrite({ destructive: false, idempotent: true }) },
  problems: ['not_found', 'forbidden'],
});

export const effectiveDefinitionEntry = z
  .object({
    name: z.string(),
    status: z.enum(['resolved', 'unresolved', 'blocked', 'disabled', 'rejected']),
    /** Why it is not resolved (unresolved, blocked, rejected) or why disabled; null when resolved. */
    reason: z.string().nullable(),
    source: sourceRef,
    shadowed: z.array(z.object({ source: sourceRef, state: z.string() }).meta({ title: 'ShadowedDefinition' })),
    fingerprint: z.string().nullable(),
    /** Security identity: `key` (what approvals store), source, transport, masked `display`. */
    identity: json.nullable(),
    projection: json.nullable(),
    perUser: z.boolean().nullable(),
    /** Entry problems, unset variables (names and fields), contenders, unreadable origins; never values. */
    problems: z.array(json),
    /** Whether it may be used in this view (decided on read; a read never opens a request). */
    activation: activationView,
  })
  .meta({ title: 'EffectiveDefinition' });

export const getEffectiveDefinitions = defineCommand({
  name: 'definitions.effective',
  summary:
    'The effective server definitions of a workspace: for the workspace alone (managed, project, plugin) or for ' +
    'the caller (every tier, their variables and overlays)',
  scope: 'definitions:read',
  kind: 'query',
  input: z.strictObject({ workspaceId: uuid, view: z.enum(['workspace', 'principal']).default('principal') }),
  output: z
    .object({
      workspaceId: uuid,
      view: z.enum(['workspace', 'principal']),
      entries: z.array(effectiveDefinitionEntry),
      problems: z.array(json),
      overlayProblems: z.array(json),
    })
    .meta({ title: 'EffectiveDefinitions' }),
  http: { method: 'GET', path: '/v1/workspaces/:workspaceId/effective-definitions' },
  graphql: { field: 'effectiveDefinitions' },
  read: { etag: true },
  surfaces: { mcp: MCP_READ },
  problems: ['not_found', 'forbidden'],
});
