import { z } from 'zod';
import { activationView } from './activation.schema';
import { isoDateTime, notTokenShaped, TOKEN_SHAPED_MESSAGE, uuid } from './common.schema';

// Server definitions (docs/architecture/definitions.md): sources per tier, write-only variables, disable
// overlays and the effective view. No output here can carry a document, a variable value or an env/header
// value: sources are shown as redacted projections (built by @gatehouse/definitions), variables as "set or
// not".

export const DEFINITION_TIERS = ['managed', 'local', 'project', 'user', 'plugin'] as const;
export type DefinitionTier = (typeof DEFINITION_TIERS)[number];
export const definitionTier = z.enum(DEFINITION_TIERS);

/** The `<name>` of `managed:<name>` and `plugin:<name>`. */
export const definitionOriginName = z
  .string()
  .min(1)
  .max(100)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._-]*$/,
    'letters, digits, dot, underscore and dash; starts with a letter or digit',
  )
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

const sourceRef = z
  .object({ tier: definitionTier, origin: z.string() })
  .meta({ title: 'DefinitionSourceRef' });

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

export const definitionSourceView = z
  .object({
    ...definitionSourceSummary.shape,
    /** Source problems: reasons and paths only. */
    problems: z.array(json),
    /** One per entry: name, state (valid | malformed | rejected), and its redacted projection or problems. */
    entries: z.array(json),
    /**
     * The document as an editor may show it (libs/definitions editableDocumentOf): env and header values hidden
     * but bare `${NAME}` references, credential-shaped literals masked. Sent back unchanged it keeps every stored
     * value. null when the stored document cannot be read.
     */
    editableDocument: json.nullable(),
  })
  .meta({ title: 'DefinitionSource' });

export const definitionSourceList = z
  .object({ items: z.array(definitionSourceSummary) })
  .meta({ title: 'DefinitionSourceList' });
export const definitionSourceDeletion = z
  .object({ deleted: z.boolean() })
  .meta({ title: 'DefinitionSourceDeletion' });

export const putDefinitionSourceInput = z.strictObject({ ...sourceTarget, document: json });
export const importDefinitionSourceInput = z.strictObject({
  ...sourceTarget,
  content: z.string().max(512 * 1024),
});
export const getDefinitionSourceInput = z.strictObject({ sourceId: uuid });
export const listDefinitionSourcesInput = z.strictObject({ workspaceId: uuid.optional() });
export const deleteDefinitionSourceInput = z.strictObject({
  sourceId: uuid,
  expectedVersion: z.coerce.number().int().min(1).optional(),
});

export const DEFINITION_VARIABLE_SCOPES = ['tenant', 'workspace', 'user'] as const;
export type DefinitionVariableScope = (typeof DEFINITION_VARIABLE_SCOPES)[number];
export const definitionVariableScope = z.enum(DEFINITION_VARIABLE_SCOPES);

export const definitionVariableState = z
  .object({
    scope: definitionVariableScope,
    workspaceId: uuid.nullable(),
    name: z.string(),
    set: z.boolean(),
    updatedAt: isoDateTime.nullable(),
  })
  .meta({ title: 'DefinitionVariableState' });
export const definitionVariableList = z
  .object({ items: z.array(definitionVariableState) })
  .meta({ title: 'DefinitionVariableList' });

const variableHolder = {
  scope: definitionVariableScope,
  /** workspace variables: their workspace. User variables are always the caller's own. */
  workspaceId: uuid.optional(),
};

export const setDefinitionVariableInput = z.strictObject({
  ...variableHolder,
  name: definitionVariableName,
  value: z.string().max(16 * 1024),
});
export const unsetDefinitionVariableInput = z.strictObject({
  ...variableHolder,
  name: definitionVariableName,
});
export const listDefinitionVariablesInput = z.strictObject(variableHolder);

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

export const setDisableOverlayInput = z.strictObject({
  workspaceId: uuid,
  serverName: definitionServerName,
  scope: overlayScope,
  reason: z.string().trim().max(200).optional(),
});
export const clearDisableOverlayInput = z.strictObject({
  workspaceId: uuid,
  serverName: definitionServerName,
  scope: overlayScope,
});

export const EFFECTIVE_STATUSES = ['resolved', 'unresolved', 'blocked', 'disabled', 'rejected'] as const;
export const EFFECTIVE_VIEWS = ['workspace', 'principal'] as const;
export type EffectiveViewKind = (typeof EFFECTIVE_VIEWS)[number];

export const effectiveOverlayView = z
  .object({ scope: overlayScope, reason: z.string().nullable() })
  .meta({ title: 'EffectiveOverlay' });

/**
 * Why an approved server can never be leased, one code per cause found (the stdio or header-helper authority
 * reasons of @gatehouse/activation, per pool, deduplicated; `destination_refused`, one class whatever the cause;
 * `no_pool_open`: no worker pool is open to the tenant).
 */
export const effectiveAdmissionView = z
  .object({ admissible: z.boolean(), reasons: z.array(z.string()) })
  .meta({ title: 'EffectiveAdmission' });

export const effectiveDefinitionEntry = z
  .object({
    name: z.string(),
    status: z.enum(EFFECTIVE_STATUSES),
    /** Why it is not resolved (unresolved, blocked, rejected) or why disabled; null when resolved. */
    reason: z.string().nullable(),
    source: sourceRef,
    shadowed: z.array(
      z.object({ source: sourceRef, state: z.string() }).meta({ title: 'ShadowedDefinition' }),
    ),
    fingerprint: z.string().nullable(),
    /** Security identity: `key` (what approvals store), source, transport, masked `display`. */
    identity: json.nullable(),
    projection: json.nullable(),
    perUser: z.boolean().nullable(),
    /** Entry problems, unset variables (names and fields), contenders, unreadable origins; never values. */
    problems: z.array(json),
    /** Whether it may be used in this view (decided on read; a read never opens a request). */
    activation: activationView,
    /**
     * For a disabled entry that resolves beneath its overlay: the decision that would hold without the overlay
     * (the approval in force, say). Null otherwise. Nothing is leased while disabled.
     */
    beneathOverlay: activationView.nullable(),
    /** The overlay that disables it here (the workspace's wins over the user's own), with its reason. */
    overlay: effectiveOverlayView.nullable(),
    /**
     * For an approved entry: whether a worker could ever be leased it on a pool open to the tenant (the operator's
     * ceiling, the tenant's host policy, URL admission), and why not. Null when not approved (activation says why).
     */
    admission: effectiveAdmissionView.nullable(),
  })
  .meta({ title: 'EffectiveDefinition' });

export const effectiveDefinitions = z
  .object({
    workspaceId: uuid,
    view: z.enum(EFFECTIVE_VIEWS),
    entries: z.array(effectiveDefinitionEntry),
    problems: z.array(json),
    overlayProblems: z.array(json),
  })
  .meta({ title: 'EffectiveDefinitions' });

export const getEffectiveDefinitionsInput = z.strictObject({
  workspaceId: uuid,
  view: z.enum(EFFECTIVE_VIEWS).default('principal'),
});

// --- What the JSON parts hold ----------------------------------------------------------------------------------
// The surfaces carry a projection, a security identity and a source entry as JSON objects (GraphQL as a JSON
// scalar); these say what is inside (@gatehouse/definitions builds them), for a reader that shows them field by
// field. Nothing here can hold an env or header value: keys only.

/** Env and header keys only: `none` and `redacted` are different answers. */
export const keysOnlyView = z.discriminatedUnion('state', [
  z.object({ state: z.literal('none') }),
  z.object({ state: z.literal('redacted'), keys: z.array(z.string()) }),
]);

export const stdioProjectionView = z.object({
  kind: z.literal('stdio'),
  command: z.string(),
  args: z.array(z.string()),
  /** Command and args as one readable line (for display only). */
  commandLine: z.string(),
  cwd: z.string().nullable(),
  env: keysOnlyView,
});

export const httpProjectionView = z.object({
  kind: z.literal('http'),
  url: z.string(),
  headers: keysOnlyView,
  headersHelper: z.array(z.string()).nullable(),
  oauth: z
    .object({
      clientId: z.string().nullable(),
      scopes: z.array(z.string()),
      allowSharedCredential: z.boolean(),
    })
    .nullable(),
  principalHeader: z.string().nullable(),
});

/** A redacted projection: what may be shown of a definition anywhere. */
export const redactedProjectionView = z.object({
  transport: z.discriminatedUnion('kind', [stdioProjectionView, httpProjectionView]),
  requiresTrustedWorkspace: z.boolean(),
  options: json,
});

export const securityIdentityView = z.object({
  key: z.string(),
  source: sourceRef,
  transport: z.enum(['stdio', 'http']),
  display: z.string(),
});

/** One entry of a stored source, as projected. */
export const sourceEntryView = z.object({
  name: z.string(),
  state: z.enum(['valid', 'malformed', 'rejected']),
  projection: redactedProjectionView.optional(),
  variables: z.array(z.string()).optional(),
  problems: z.array(json).optional(),
  transport: z.string().optional(),
});

/** The effective view with its JSON parts read as what they hold. */
export const effectiveDefinitionsReading = effectiveDefinitions.extend({
  entries: z.array(
    effectiveDefinitionEntry.extend({
      identity: securityIdentityView.nullable(),
      projection: redactedProjectionView.nullable(),
    }),
  ),
});

/** A stored source with its entries read as what they hold. */
export const definitionSourceReading = definitionSourceView.extend({ entries: z.array(sourceEntryView) });
