import { findJsonShapeProblem } from '@gatehouse/contracts';
import { keySegment, type PathSegment } from './decode-problem';

/**
 * Bounds of one definition document, judged before anything walks it: what one write can make every later resolve
 * (and every event's re-decision) pay is bounded by these, whatever the writer sends. A document past a bound is
 * refused whole (typed), never cut.
 */

/** At most this many bytes of UTF-8 text (what the import command accepts as characters, counted as bytes). */
export const MAX_DOCUMENT_BYTES = 512 * 1024;

/**
 * Containers may nest at most this deep in a whole document (the root object is depth 1; the format needs the root,
 * `mcpServers`, the entry and eight levels below it). Past this the document is refused before any recursive walk
 * (the API's placeholder restore, JSON.stringify) can overflow the stack.
 */
export const MAX_DOCUMENT_DEPTH = 16;

/** UTF-8 length of a string, without encoding it (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i += 1;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** Whether `text` is longer than {@link MAX_DOCUMENT_BYTES} in UTF-8; stops counting once it is decided. */
export function exceedsDocumentBytes(text: string): boolean {
  if (text.length > MAX_DOCUMENT_BYTES) return true;
  if (text.length * 3 <= MAX_DOCUMENT_BYTES) return false;
  return utf8ByteLength(text) > MAX_DOCUMENT_BYTES;
}

/**
 * The path of the first container nested deeper than {@link MAX_DOCUMENT_DEPTH} in a parsed value, or null.
 * Iterative (a hostile depth cannot exhaust the stack) and linear in the value's size; a path is rendered only
 * for the container it reports.
 */
export function findTooDeep(value: unknown): readonly PathSegment[] | null {
  const problem = findJsonShapeProblem(value, { maxDepth: MAX_DOCUMENT_DEPTH });
  if (problem === null) return null;
  return problem.path.map(({ key, index }) => (typeof key === 'number' ? key : keySegment(key, index)));
}
