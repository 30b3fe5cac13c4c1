import type {
  CatalogDiagnostic,
  CatalogTool,
  CatalogToolFace,
  CatalogToolServerHints,
  ServerCatalogV1,
} from '@gatehouse/contracts';
import type { ContentOrigin } from './content-origin-reader';
import { foldToolAxes } from './tool-axes-fold';
import type { ToolAxes } from './tool-axes-reader';
import { checkToolFace } from './tool-face-validator';
import type { ToolFace, ToolFaces } from './tool-faces-reader';

/** The per-server options the catalog applies (as their strict readers read them at decode). */
export interface CatalogOptions {
  readonly allowTools?: readonly string[];
  readonly toolAxes?: ToolAxes;
  readonly toolFaces?: ToolFaces;
  readonly contentOrigin?: ContentOrigin;
}

type Unnamed<T> = Omit<T, 'name'> & { readonly name?: string };

/** A server's catalog before names are minted across the document (assembleCatalogDocument mints them). */
export type UnnamedServerCatalog = Omit<
  ServerCatalogV1,
  'tools' | 'prompts' | 'resources' | 'resourceTemplates'
> & {
  readonly tools: readonly Unnamed<CatalogTool>[];
  readonly prompts: readonly Unnamed<ServerCatalogV1['prompts'][number]>[];
  readonly resources: readonly Unnamed<ServerCatalogV1['resources'][number]>[];
  readonly resourceTemplates: readonly Unnamed<ServerCatalogV1['resourceTemplates'][number]>[];
};

/**
 * The diagnostics only the options produce. Applying the options drops every one the catalog carried and derives
 * them again, so what a snapshot's producer said about them (another version, a bug, a lie) never survives.
 */
const OPTION_DIAGNOSTIC_CODES: ReadonlySet<CatalogDiagnostic['code']> = new Set([
  'allow_tools_unlisted',
  'tool_axes_undeclared',
  'tool_face_undeclared',
  'tool_axes_contradiction',
  'tool_face_invalid',
]);

function faceView(face: ToolFace): CatalogToolFace {
  const view: {
    family?: string;
    pathTarget?: { param: string };
    renderHints?: { displayName?: string; summary?: string; approvalCard?: string[] };
    ruleFace?: { keys: string[] };
  } = {};
  if (face.family !== undefined) view.family = face.family;
  if (face.pathTarget !== undefined) view.pathTarget = { param: face.pathTarget.param };
  if (face.renderHints !== undefined) {
    const hints: { displayName?: string; summary?: string; approvalCard?: string[] } = {};
    if (face.renderHints.displayName !== undefined) hints.displayName = face.renderHints.displayName;
    if (face.renderHints.summary !== undefined) hints.summary = face.renderHints.summary;
    if (face.renderHints.approvalCard !== undefined) hints.approvalCard = [...face.renderHints.approvalCard];
    view.renderHints = hints;
  }
  if (face.ruleFace !== undefined) view.ruleFace = { keys: [...face.ruleFace.keys] };
  return view;
}

/**
 * Applies a definition's catalog options to one server's catalog, from what the listing itself carries (each
 * tool's remote name, materialized input schema and server hints), whatever the catalog already said about them:
 * `allowTools` keeps only the tools it lists (a member the catalog lacks is reported); `toolAxes` is folded
 * fail-closed with the server's hints (decision 0048); each `toolFaces` entry is judged against the tool's
 * materialized schema and applied whole or not at all; `contentOrigin` (absent: `external`) is set on the server
 * and every tool. A key naming a tool the catalog does not carry is reported once.
 *
 * The one implementation of the options: buildServerCatalog applies them at every listing, and the API applies
 * them again to every stored snapshot when it builds a catalog lease (decisions 0096 and 0101), with the options
 * of the definition approved now. Pure and idempotent: applying the same options twice gives the same catalog.
 */
export function applyCatalogOptions<C extends UnnamedServerCatalog>(catalog: C, options: CatalogOptions): C {
  const server = catalog.identity.server;
  const { allowTools, toolAxes, toolFaces } = options;
  const contentOrigin = options.contentOrigin ?? 'external';
  const allowed = allowTools === undefined ? undefined : new Set(allowTools);
  const diagnostics: CatalogDiagnostic[] = catalog.diagnostics.filter(
    (d) =>
      !OPTION_DIAGNOSTIC_CODES.has(d.code) &&
      // Nothing is said about a tool outside allowTools, not even how its schema was narrowed.
      (allowed === undefined || d.code !== 'schema_narrowed' || allowed.has(d.tool)),
  );
  const listed = new Set(catalog.tools.map((tool) => tool.remoteName));
  for (const name of new Set(allowTools ?? [])) {
    if (!listed.has(name)) diagnostics.push({ code: 'allow_tools_unlisted', server, tool: name });
  }
  for (const name of Object.keys(toolAxes ?? {})) {
    if (!listed.has(name)) diagnostics.push({ code: 'tool_axes_undeclared', server, tool: name });
  }
  for (const name of Object.keys(toolFaces ?? {})) {
    if (!listed.has(name)) diagnostics.push({ code: 'tool_face_undeclared', server, tool: name });
  }
  const tools = catalog.tools.flatMap((tool) => {
    if (allowed !== undefined && !allowed.has(tool.remoteName)) return [];
    const hints: CatalogToolServerHints | undefined = tool.serverHints;
    const folded = foldToolAxes(toolAxes?.[tool.remoteName], hints);
    if (folded.contradiction) {
      diagnostics.push({ code: 'tool_axes_contradiction', server, tool: tool.remoteName });
    }
    // Whatever face the catalog carried goes: only the definition's, when it fits this schema, is put back.
    const { face: _carried, ...rest } = tool;
    const entry: typeof tool = { ...rest, axes: folded.axes, axesFrom: folded.from, contentOrigin };
    const face = toolFaces?.[tool.remoteName];
    if (face === undefined) return [entry];
    const check = checkToolFace(face, tool.inputSchema);
    if (check.ok) return [{ ...entry, face: faceView(face) }];
    diagnostics.push({
      code: 'tool_face_invalid',
      server,
      tool: tool.remoteName,
      problems: check.faults.map((f) => ({ path: [...f.path], problem: f.problem })),
    });
    return [entry];
  });
  return {
    ...catalog,
    contentOrigin,
    contentOriginDeclared: options.contentOrigin !== undefined,
    tools,
    diagnostics,
  };
}
