import type {
  Prompt,
  Resource,
  ResourceTemplateType as ResourceTemplate,
  Tool,
} from '@modelcontextprotocol/client';
import { readResultCap, type ResultCap, type ResultCapDiagnostic } from '../results/result-cap.policy';
import { narrowInputSchema, type DroppedPath, type NarrowedInputSchema } from '../schema/schema-narrowing';
import { drainPages, type DrainResult, type PaginationFailure } from './bounded-pagination';
import type { ListingClient } from './listing-client';

// Discovery of tools, prompts, resources and resource templates: a list method is called only when the server
// declared its capability; a declared one is drained page by page under the bounds; each tool's inputSchema is
// narrowed once (its drops reported once, here) and its result cap read once. A catalog is complete only when
// every declared list completed.

export type ListKind = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';
export const LIST_KINDS: readonly ListKind[] = ['tools', 'prompts', 'resources', 'resourceTemplates'];

export type ListStatus =
  | { readonly state: 'not_declared' }
  | { readonly state: 'complete'; readonly pages: number }
  | { readonly state: 'failed'; readonly pages: number; readonly failure: PaginationFailure };

/** A discovered tool: the server's definition with its inputSchema narrowed, and its result cap. */
export interface DiscoveredTool extends Omit<Tool, 'inputSchema'> {
  readonly inputSchema: NarrowedInputSchema;
  readonly resultCap: ResultCap;
}

export type DiscoveryDiagnostic =
  | {
      readonly kind: 'schema_narrowed';
      readonly tool: string;
      readonly dropped: readonly DroppedPath[];
      readonly droppedNotListed: number;
    }
  | { readonly kind: 'result_cap_ignored'; readonly tool: string; readonly reason: ResultCapDiagnostic }
  /** The same name (tools, prompts), URI (resources) or template listed twice: the first one is kept. */
  | { readonly kind: 'duplicate_entry'; readonly list: ListKind; readonly key: string };

export interface DiscoveredLists {
  readonly tools: readonly DiscoveredTool[];
  readonly prompts: readonly Prompt[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplate[];
}

export interface Discovery extends DiscoveredLists {
  /** True only when every declared list was drained to its end. */
  readonly complete: boolean;
  readonly lists: Readonly<Record<ListKind, ListStatus>>;
  readonly diagnostics: readonly DiscoveryDiagnostic[];
}

export interface DiscoveryOptions {
  /** Pages per list (default {@link DEFAULT_MAX_PAGES}). */
  readonly maxPages?: number;
  /** Entries per list (default {@link DEFAULT_MAX_ENTRIES}). */
  readonly maxEntries?: number;
  /** Each page's own timeout (default {@link DEFAULT_LIST_REQUEST_TIMEOUT_MS}). */
  readonly requestTimeoutMs?: number;
  /** The whole walk's bound (e.g. the startup bound for the initial listing), every list and page together. */
  readonly walkTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

export const DEFAULT_MAX_PAGES = 500;
export const DEFAULT_MAX_ENTRIES = 100_000;
export const DEFAULT_LIST_REQUEST_TIMEOUT_MS = 30_000;
const MAX_KEY_IN_DIAGNOSTIC = 256;

function declared(client: ListingClient, kind: ListKind): boolean {
  const caps = client.getServerCapabilities();
  switch (kind) {
    case 'tools':
      return caps?.tools !== undefined;
    case 'prompts':
      return caps?.prompts !== undefined;
    case 'resources':
    case 'resourceTemplates':
      return caps?.resources !== undefined;
  }
}

function statusOf(drain: DrainResult<unknown>): ListStatus {
  return drain.ok
    ? { state: 'complete', pages: drain.pages }
    : { state: 'failed', pages: drain.pages, failure: drain.failure };
}

function firstOfEach<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  list: ListKind,
  diagnostics: DiscoveryDiagnostic[],
): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const key = keyOf(item);
    if (seen.has(key)) {
      diagnostics.push({ kind: 'duplicate_entry', list, key: key.slice(0, MAX_KEY_IN_DIAGNOSTIC) });
      continue;
    }
    seen.add(key);
    out.push(item);
  }
  return out;
}

/** Narrows one listed tool: its schema once, its result cap once, with their diagnostics. */
export function admitListedTool(tool: Tool, diagnostics: DiscoveryDiagnostic[]): DiscoveredTool {
  const narrowing = narrowInputSchema(tool.inputSchema);
  if (narrowing.dropped.length > 0)
    diagnostics.push({
      kind: 'schema_narrowed',
      tool: tool.name,
      dropped: narrowing.dropped,
      droppedNotListed: narrowing.droppedNotListed,
    });
  const resultCap = readResultCap(tool._meta);
  if (resultCap.diagnostic)
    diagnostics.push({ kind: 'result_cap_ignored', tool: tool.name, reason: resultCap.diagnostic });
  return { ...tool, inputSchema: narrowing.schema, resultCap };
}

const EMPTY: DrainResult<never> = { ok: true, items: [], pages: 0 };

/** Discovers what the connected server declared. Never throws for what a server does; every stop is named. */
export async function discoverCatalog(
  client: ListingClient,
  options: DiscoveryOptions = {},
): Promise<Discovery> {
  const signals = [
    options.signal,
    options.walkTimeoutMs ? AbortSignal.timeout(options.walkTimeoutMs) : undefined,
  ];
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  const signal =
    present.length === 0 ? undefined : present.length === 1 ? present[0] : AbortSignal.any(present);
  const bounds = {
    maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
    maxEntries: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
    requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_LIST_REQUEST_TIMEOUT_MS,
    ...(signal ? { signal } : {}),
  };

  const params = (cursor: string | undefined) => (cursor === undefined ? {} : { params: { cursor } });
  const tools = declared(client, 'tools')
    ? await drainPages(async (cursor, o) => {
        const r = await client.request({ method: 'tools/list', ...params(cursor) }, o);
        return { items: r.tools, nextCursor: r.nextCursor };
      }, bounds)
    : null;
  const prompts = declared(client, 'prompts')
    ? await drainPages(async (cursor, o) => {
        const r = await client.request({ method: 'prompts/list', ...params(cursor) }, o);
        return { items: r.prompts, nextCursor: r.nextCursor };
      }, bounds)
    : null;
  const resources = declared(client, 'resources')
    ? await drainPages(async (cursor, o) => {
        const r = await client.request({ method: 'resources/list', ...params(cursor) }, o);
        return { items: r.resources, nextCursor: r.nextCursor };
      }, bounds)
    : null;
  const resourceTemplates = declared(client, 'resourceTemplates')
    ? await drainPages(async (cursor, o) => {
        const r = await client.request({ method: 'resources/templates/list', ...params(cursor) }, o);
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      }, bounds)
    : null;

  const diagnostics: DiscoveryDiagnostic[] = [];
  const listedTools = firstOfEach((tools ?? EMPTY).items, (t) => t.name, 'tools', diagnostics);
  const lists: Record<ListKind, ListStatus> = {
    tools: tools ? statusOf(tools) : { state: 'not_declared' },
    prompts: prompts ? statusOf(prompts) : { state: 'not_declared' },
    resources: resources ? statusOf(resources) : { state: 'not_declared' },
    resourceTemplates: resourceTemplates ? statusOf(resourceTemplates) : { state: 'not_declared' },
  };
  return {
    complete: LIST_KINDS.every((k) => lists[k].state !== 'failed'),
    lists,
    tools: listedTools.map((tool) => admitListedTool(tool, diagnostics)),
    prompts: firstOfEach((prompts ?? EMPTY).items, (p) => p.name, 'prompts', diagnostics),
    resources: firstOfEach((resources ?? EMPTY).items, (r) => r.uri, 'resources', diagnostics),
    resourceTemplates: firstOfEach(
      (resourceTemplates ?? EMPTY).items,
      (t) => t.uriTemplate,
      'resourceTemplates',
      diagnostics,
    ),
    diagnostics,
  };
}
