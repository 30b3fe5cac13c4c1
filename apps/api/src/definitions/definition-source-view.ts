import type { definitionSourceSummary, definitionSourceView } from '@gatehouse/commands';
import type { z } from 'zod';
import {
  decodeDefinitionDocument,
  editableDocumentOf,
  materializeDefinition,
  projectDefinition,
  type DecodedEntry,
  type DocumentDecode,
  type SourceRef,
} from '@gatehouse/definitions';
import type { DefinitionTierName } from './definition-access';

type Json = Record<string, unknown>;

/** The columns of a definition_sources row this module reads. */
export interface StoredSource {
  readonly id: string;
  readonly tenantId: string;
  readonly tier: string;
  readonly origin: string;
  readonly workspaceId: string | null;
  readonly ownerUserId: string | null;
  readonly documentCt: Uint8Array;
  readonly readability: string;
  readonly version: number;
  readonly updatedAt: Date;
}

/** Only plain JSON leaves the API (the lib's results are plain already; this drops anything that is not). */
export function plain<T>(value: T): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}

export function sourceRefOf(row: Pick<StoredSource, 'tier' | 'origin'>): SourceRef {
  return { tier: row.tier as DefinitionTierName, origin: row.origin };
}

/**
 * One entry as a source editor sees it: materialized with NO variables, so every reference shows as `${NAME}`
 * (secret or not) and credential-shaped literals are masked; env and header values never appear.
 */
export function entryView(entry: DecodedEntry): Json {
  switch (entry.kind) {
    case 'valid': {
      const materialized = materializeDefinition(entry.definition, {});
      return plain({
        name: entry.name,
        state: 'valid',
        projection: projectDefinition(materialized.definition),
        variables: [
          ...new Set([
            ...materialized.uses.map((u) => u.variable),
            ...materialized.unset.map((u) => u.variable),
          ]),
        ].sort(),
      });
    }
    case 'malformed':
      return plain({ name: entry.name, state: 'malformed', problems: entry.problems });
    case 'rejected':
      return plain({ name: entry.name, state: 'rejected', transport: entry.transport });
    default: {
      const unreachable: never = entry;
      throw new Error(`unknown decoded entry ${String(unreachable)}`);
    }
  }
}

export function problemsOf(decoded: DocumentDecode): Json[] {
  return decoded.readable ? decoded.problems.map((p) => plain(p)) : [plain(decoded.problem)];
}

export function toSourceSummary(row: StoredSource): z.infer<typeof definitionSourceSummary> {
  return {
    id: row.id,
    tier: row.tier as DefinitionTierName,
    origin: row.origin,
    workspaceId: row.workspaceId,
    ownerUserId: row.ownerUserId,
    readability: row.readability === 'readable' ? 'readable' : 'unreadable',
    version: row.version,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `text` undefined: the stored ciphertext could not be opened (the source reads as unreadable). */
export function toSourceView(
  row: StoredSource,
  text: string | undefined,
): z.infer<typeof definitionSourceView> {
  const summary = toSourceSummary(row);
  if (text === undefined) {
    return {
      ...summary,
      readability: 'unreadable',
      problems: [{ reason: 'storage_unreadable', path: [] }],
      entries: [],
      editableDocument: null,
    };
  }
  const decoded = decodeDefinitionDocument(text, sourceRefOf(row));
  return {
    ...summary,
    problems: problemsOf(decoded),
    entries: decoded.readable ? decoded.entries.map(entryView) : [],
    editableDocument: decoded.readable ? editableOf(text) : null,
  };
}

/** The stored text is JSON the decoder just read; anything else has no editable form. */
function editableOf(text: string): Json | null {
  try {
    const shown = editableDocumentOf(JSON.parse(text) as unknown);
    return typeof shown === 'object' && shown !== null && !Array.isArray(shown) ? (shown as Json) : null;
  } catch {
    return null;
  }
}
