import { isPlainRecord } from '@gatehouse/catalog';
import { claimsApprovalOrTrust } from './approval-claim.guard';
import { keySegment, type PathSegment } from './decode-problem';
import { decodeServerEntry, type DecodedEntry } from './definition-decoder';
import { exceedsDocumentBytes, findTooDeep, MAX_DOCUMENT_DEPTH } from './document-limits.guard';
import { isValidServerName } from './server-name';
import { scanStrictJson } from './strict-json-scanner';
import type { SourceRef } from './tier';

/**
 * Problems of a whole source. The first nine make the source UNREADABLE (nothing in it can be used); the rest are
 * about one member of the document and leave its other entries usable.
 */
export type SourceProblemReason =
  /** The document is not JSON. */
  | 'invalid_json'
  /** The root is not an object. */
  | 'root_not_object'
  /** The root has no `mcpServers`. An empty source says `{ "mcpServers": {} }`. */
  | 'missing_mcp_servers'
  /** `mcpServers` is not an object. */
  | 'mcp_servers_not_object'
  /** The host could not read the stored source at all (e.g. it could not be decrypted). */
  | 'storage_unreadable'
  /** `mcpServers` holds more than {@link MAX_SERVERS_PER_DOCUMENT} servers. */
  | 'too_many_servers'
  /** The text is longer than MAX_DOCUMENT_BYTES (UTF-8). */
  | 'document_too_large'
  /** Containers nest deeper than MAX_DOCUMENT_DEPTH; the path names the first one past it. */
  | 'document_too_deep'
  /** An object repeats a key (JSON.parse would silently keep the last); the path names the repeated key. */
  | 'duplicate_key'
  /** A server name outside the allowed syntax (see server-name.ts); the entry is skipped. */
  | 'invalid_server_name'
  /** A root member other than `mcpServers`; ignored. */
  | 'unknown_root_key'
  /** A root member claiming approval or trust; refused (ignored and reported). */
  | 'approval_claim'
  /** A root member named `__proto__`; ignored. */
  | 'forbidden_key'
  /** A source the view does not read (a user's own source in the workspace view, or another user's). */
  | 'outside_view';

export const UNREADABLE_REASONS: ReadonlySet<SourceProblemReason> = new Set([
  'invalid_json',
  'root_not_object',
  'missing_mcp_servers',
  'mcp_servers_not_object',
  'storage_unreadable',
  'too_many_servers',
  'document_too_large',
  'document_too_deep',
  'duplicate_key',
]);

/**
 * At most this many servers in one document. Every event re-decides each entry in every view the source reaches
 * and may open a request per entry and view (a user source reaches all the user's workspaces), so the size of one
 * document bounds the work and the rows one write can cause. A larger document is not read at all, rather than
 * cut at an arbitrary member: which servers a source holds is never a guess.
 */
export const MAX_SERVERS_PER_DOCUMENT = 200;

export interface DocumentProblem {
  readonly reason: SourceProblemReason;
  readonly path: readonly PathSegment[];
}

export type DocumentDecode =
  | {
      readonly readable: true;
      readonly entries: readonly DecodedEntry[];
      readonly problems: readonly DocumentProblem[];
    }
  | { readonly readable: false; readonly problem: DocumentProblem };

/**
 * Decodes a parsed document `{ "mcpServers": { name: entry } }` (the `.mcp.json` / `managed-mcp.json` format).
 * A root or `mcpServers` that is unusable makes the source unreadable; otherwise each entry decodes alone.
 */
export function decodeDefinitionValue(document: unknown, source: SourceRef): DocumentDecode {
  const tooDeep = findTooDeep(document);
  if (tooDeep) return { readable: false, problem: { reason: 'document_too_deep', path: tooDeep } };
  return decodeBounded(document, source);
}

/**
 * Judges a document's text before it is read: its size, that it is JSON, no key repeated in any object, nesting
 * within bounds. Returns the problem that makes it unreadable, or the parsed value. Linear in the text.
 */
export function checkDocumentText(
  text: string,
):
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: DocumentProblem } {
  if (exceedsDocumentBytes(text)) return { ok: false, problem: { reason: 'document_too_large', path: [] } };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's message quotes the text around the error, which may be a secret: only the reason is kept.
    return { ok: false, problem: { reason: 'invalid_json', path: [] } };
  }
  const strict = scanStrictJson(text, MAX_DOCUMENT_DEPTH);
  if (strict) {
    const reason = strict.reason === 'too_deep' ? 'document_too_deep' : 'duplicate_key';
    return { ok: false, problem: { reason, path: strict.path } };
  }
  return { ok: true, value };
}

function decodeBounded(document: unknown, source: SourceRef): DocumentDecode {
  if (!isPlainRecord(document)) return { readable: false, problem: { reason: 'root_not_object', path: [] } };
  const problems: DocumentProblem[] = [];
  const rootKeys = Object.keys(document);
  for (let i = 0; i < rootKeys.length; i += 1) {
    const key = rootKeys[i] as string;
    if (key === 'mcpServers') continue;
    const path = [keySegment(key, i)];
    if (key === '__proto__') problems.push({ reason: 'forbidden_key', path });
    else if (claimsApprovalOrTrust(key)) problems.push({ reason: 'approval_claim', path });
    else problems.push({ reason: 'unknown_root_key', path });
  }
  if (!Object.hasOwn(document, 'mcpServers')) {
    return { readable: false, problem: { reason: 'missing_mcp_servers', path: ['mcpServers'] } };
  }
  const servers = document.mcpServers;
  if (!isPlainRecord(servers)) {
    return { readable: false, problem: { reason: 'mcp_servers_not_object', path: ['mcpServers'] } };
  }
  const names = Object.keys(servers);
  if (names.length > MAX_SERVERS_PER_DOCUMENT) {
    return { readable: false, problem: { reason: 'too_many_servers', path: ['mcpServers'] } };
  }
  const entries: DecodedEntry[] = [];
  for (let i = 0; i < names.length; i += 1) {
    const name = names[i] as string;
    if (!isValidServerName(name)) {
      problems.push({ reason: 'invalid_server_name', path: ['mcpServers', keySegment(name, i)] });
      continue;
    }
    entries.push(decodeServerEntry(name, servers[name], source));
  }
  return { readable: true, entries, problems };
}

/**
 * Decodes a document's JSON text. Text past the size bound, text that is not JSON, a repeated key and nesting past
 * the depth bound make the source unreadable (see {@link checkDocumentText}).
 */
export function decodeDefinitionDocument(text: string, source: SourceRef): DocumentDecode {
  const checked = checkDocumentText(text);
  if (!checked.ok) return { readable: false, problem: checked.problem };
  return decodeBounded(checked.value, source);
}
