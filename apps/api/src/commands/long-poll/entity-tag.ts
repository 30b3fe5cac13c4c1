import { createHash } from 'node:crypto';

/**
 * The ETag of a read: the SHA-256 of the exact JSON body it answers (the output parsed through its schema,
 * serialized as the route sends it), so equal tags mean equal bodies for this caller. A strong tag.
 */
export function entityTagOf(output: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(output)).digest('base64url')}"`;
}

/**
 * `If-None-Match` against the current tag, with the weak comparison RFC 9110 prescribes for it: `*` matches
 * anything, a list matches when one member does, `W/` is ignored on either side.
 */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (header === undefined) return false;
  const opaque = tag.replace(/^W\//, '');
  return header
    .split(',')
    .map((member) => member.trim())
    .some((member) => member === '*' || member.replace(/^W\//, '') === opaque);
}
