import { z } from 'zod';

/**
 * The catalog document: what one or more MCP servers offer, as Gatehouse mounts it. One schema for the catalog
 * snapshot a worker posts (one server), the workspace catalog a runtime leases (every server of the workspace)
 * and what the gateway serves. Built by `@gatehouse/catalog` (`assembleCatalogDocument`); strict, so a producer
 * that adds a field must bump `v`. Decision 0048.
 */

/** A minted name (`mcp__<server>__<remote>`): the tool-name format model APIs accept. */
export const MINTED_NAME_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
/** Longest remote name (tool, prompt or resource name) a catalog carries; a longer one is not mounted. */
export const MAX_REMOTE_NAME_LENGTH = 1024;
export const MAX_CATALOG_SERVER_NAME_LENGTH = 64;

const mintedName = z.string().regex(MINTED_NAME_PATTERN);
const remoteName = z.string().min(1).max(MAX_REMOTE_NAME_LENGTH);
const serverName = z.string().min(1).max(MAX_CATALOG_SERVER_NAME_LENGTH);
const jsonObject = z.record(z.string(), z.json());

export const CATALOG_TIERS = ['managed', 'local', 'project', 'user', 'plugin'] as const;

/** Where the server's definition came from, echoed on the server and on every entry. */
export const catalogSource = z.strictObject({
  tier: z.enum(CATALOG_TIERS),
  origin: z.string().min(1).max(256),
});

/** The protocol eras: a 2025-era `initialize` handshake, or 2026-07-28 and later (`server/discover`). */
export const PROTOCOL_ERAS = ['legacy', 'modern'] as const;

/**
 * What a catalog is bound to: the server, the protocol version the handshake negotiated and its era, and the
 * version the server announced. A reconnect whose identity differs invalidates a catalog held for the old one.
 * The era is optional: a snapshot from before it was recorded (decision 0143) still reads.
 */
export const catalogIdentity = z.strictObject({
  server: serverName,
  protocolVersion: z.string().min(1).max(64),
  protocolEra: z.enum(PROTOCOL_ERAS).optional(),
  serverVersion: z.string().max(256),
});

export const CONTENT_ORIGIN_WORDS = ['local', 'execution', 'external'] as const;
const contentOrigin = z.enum(CONTENT_ORIGIN_WORDS);

/** The effective safety axes of one tool, and what decided each (the caller's `toolAxes`, a server hint, the default). */
export const toolAxesView = z.strictObject({
  effect: z.enum(['read', 'idempotent', 'write']),
  egress: z.boolean(),
  irreversibility: z.enum(['always', 'never']).optional(),
});
export const toolAxesFrom = z.strictObject({
  effect: z.enum(['caller', 'default']),
  egress: z.enum(['caller', 'default']),
  irreversibility: z.enum(['caller', 'server_hint', 'absent']),
});

/** The server's own annotations, echoed as the untrusted hints they are. */
export const toolServerHints = z.strictObject({
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});

const propertyName = z.string().min(1).max(128);
export const toolFaceView = z.strictObject({
  family: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,63}$/)
    .optional(),
  pathTarget: z.strictObject({ param: propertyName }).optional(),
  renderHints: z
    .strictObject({
      displayName: z.string().max(128).optional(),
      summary: z.string().max(1024).optional(),
      approvalCard: z.array(propertyName).min(1).max(64).optional(),
    })
    .optional(),
  ruleFace: z.strictObject({ keys: z.array(propertyName).min(1).max(64) }).optional(),
});

export const catalogTool = z.strictObject({
  name: mintedName,
  remoteName,
  title: z.string().optional(),
  description: z.string().optional(),
  /** The materialized (narrowed) input schema. */
  inputSchema: jsonObject,
  outputSchema: jsonObject.optional(),
  axes: toolAxesView,
  axesFrom: toolAxesFrom,
  serverHints: toolServerHints.optional(),
  /** The deployment's face, present only when it fit this listing's schema whole. */
  face: toolFaceView.optional(),
  contentOrigin,
  source: catalogSource,
});

export const catalogPrompt = z.strictObject({
  name: mintedName,
  remoteName,
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(
      z.strictObject({
        name: z.string(),
        description: z.string().optional(),
        required: z.boolean().optional(),
      }),
    )
    .optional(),
  source: catalogSource,
});

export const catalogResource = z.strictObject({
  name: mintedName,
  remoteName,
  uri: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().max(256).optional(),
  source: catalogSource,
});

export const catalogResourceTemplate = z.strictObject({
  name: mintedName,
  remoteName,
  uriTemplate: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  mimeType: z.string().max(256).optional(),
  source: catalogSource,
});

export const CATALOG_ENTRY_KINDS = ['tool', 'prompt', 'resource', 'resource_template'] as const;
export const CATALOG_CAPABILITIES = ['tools', 'prompts', 'resources', 'resourceTemplates'] as const;
export const TOOL_FACE_PROBLEMS = [
  'schema_not_object',
  'not_a_property',
  'not_a_string_property',
  'not_a_scalar_property',
  'unknown_family',
] as const;

const entryKind = z.enum(CATALOG_ENTRY_KINDS);
const diagnosticCode = z.string().regex(/^[a-z][a-z0-9_]{0,63}$/);

/**
 * Everything a build noticed and did about it. Names only (remote names, minted names, property paths): never a
 * value from a schema, an argument or a definition.
 */
export const catalogDiagnostic = z.discriminatedUnion('code', [
  /** Two entries minted one name: the loser was renamed (hash-suffixed) or, when that was taken too, dropped. */
  z.strictObject({
    code: z.literal('name_collision'),
    kind: entryKind,
    server: serverName,
    remoteName,
    winner: z.strictObject({ server: serverName, remoteName }),
    resolution: z.enum(['renamed', 'dropped']),
    name: mintedName.optional(),
  }),
  /** Two servers list the same resource URI (or template): the later server's entry is not mounted. */
  z.strictObject({
    code: z.literal('uri_collision'),
    kind: z.enum(['resource', 'resource_template']),
    server: serverName,
    remoteName,
    winnerServer: serverName,
  }),
  /** A face that does not fit this listing's schema: the tool mounts without any of it. */
  z.strictObject({
    code: z.literal('tool_face_invalid'),
    server: serverName,
    tool: remoteName,
    problems: z
      .array(
        z.strictObject({
          path: z.array(z.union([z.string(), z.number()])),
          problem: z.enum(TOOL_FACE_PROBLEMS),
        }),
      )
      .min(1),
  }),
  /** A face, an axis or an allowTools member naming a tool this listing does not carry. */
  z.strictObject({
    code: z.enum(['tool_face_undeclared', 'tool_axes_undeclared', 'allow_tools_unlisted']),
    server: serverName,
    tool: remoteName,
  }),
  /** The caller lowered `effect` but kept `egress: true`: the tool keeps the fail-closed `write`. */
  z.strictObject({ code: z.literal('tool_axes_contradiction'), server: serverName, tool: remoteName }),
  /** The server listed an entry whose name is empty or longer than MAX_REMOTE_NAME_LENGTH: not mounted. */
  z.strictObject({
    code: z.literal('invalid_remote_name'),
    kind: entryKind,
    server: serverName,
    index: z.number().int().min(0),
  }),
  /** The server listed a name twice: the first is mounted. */
  z.strictObject({
    code: z.literal('duplicate_remote_name'),
    kind: entryKind,
    server: serverName,
    remoteName,
  }),
  /** Schema narrowing replaced these paths of the tool's input schema with accept-anything nodes. */
  z.strictObject({
    code: z.literal('schema_narrowed'),
    server: serverName,
    tool: remoteName,
    paths: z.array(z.string()).min(1),
  }),
  /** A capability's listing failed (the discovery's own reason code): the catalog is not complete. */
  z.strictObject({
    code: z.literal('listing_failed'),
    server: serverName,
    capability: z.enum(CATALOG_CAPABILITIES),
    reason: diagnosticCode,
  }),
]);

export const serverCatalogV1 = z.strictObject({
  identity: catalogIdentity,
  source: catalogSource,
  /** The class this server's tools bring back; `external` unless the deployment declared otherwise. */
  contentOrigin,
  contentOriginDeclared: z.boolean(),
  /** Every declared capability was listed to its last page. */
  complete: z.boolean(),
  /** A refresh failed and this is the last good listing. */
  stale: z.boolean(),
  fetchedAt: z.iso.datetime(),
  tools: z.array(catalogTool),
  prompts: z.array(catalogPrompt),
  resources: z.array(catalogResource),
  resourceTemplates: z.array(catalogResourceTemplate),
  diagnostics: z.array(catalogDiagnostic),
});

export const catalogDocumentV1 = z.strictObject({
  v: z.literal(1),
  /** Every server's catalog is complete. */
  complete: z.boolean(),
  /** Some server's catalog is stale. */
  stale: z.boolean(),
  /** In server-name order. */
  servers: z.array(serverCatalogV1),
  /** What assembling the servers together did (name and URI collisions across and within servers). */
  diagnostics: z.array(catalogDiagnostic),
});

/** Every version a reader still accepts; a new version is added here beside the old one. */
export const catalogDocument = z.discriminatedUnion('v', [catalogDocumentV1]);

export type CatalogSource = z.infer<typeof catalogSource>;
export type CatalogIdentity = z.infer<typeof catalogIdentity>;
export type CatalogToolAxes = z.infer<typeof toolAxesView>;
export type CatalogToolAxesFrom = z.infer<typeof toolAxesFrom>;
export type CatalogToolServerHints = z.infer<typeof toolServerHints>;
export type CatalogToolFace = z.infer<typeof toolFaceView>;
export type CatalogTool = z.infer<typeof catalogTool>;
export type CatalogPrompt = z.infer<typeof catalogPrompt>;
export type CatalogResource = z.infer<typeof catalogResource>;
export type CatalogResourceTemplate = z.infer<typeof catalogResourceTemplate>;
export type CatalogDiagnostic = z.infer<typeof catalogDiagnostic>;
export type CatalogEntryKind = (typeof CATALOG_ENTRY_KINDS)[number];
export type CatalogCapability = (typeof CATALOG_CAPABILITIES)[number];
export type ToolFaceProblem = (typeof TOOL_FACE_PROBLEMS)[number];
export type ServerCatalogV1 = z.infer<typeof serverCatalogV1>;
export type CatalogDocumentV1 = z.infer<typeof catalogDocumentV1>;
export type CatalogDocument = z.infer<typeof catalogDocument>;
