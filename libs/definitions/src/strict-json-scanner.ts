import { keySegment, type PathSegment } from './decode-problem';

/**
 * What JSON.parse forgives and a definition must not: a key written twice in one object (JSON.parse keeps the last,
 * so what the author read and what runs can differ) and nesting past a bound (every later recursive walk, and
 * JSON.stringify, would overflow the stack on it).
 */
export type StrictJsonProblem =
  | { readonly reason: 'duplicate_key'; readonly path: readonly PathSegment[] }
  | { readonly reason: 'too_deep'; readonly path: readonly PathSegment[] };

interface Frame {
  readonly isObject: boolean;
  /** Where this container sits in its parent (null for the root). */
  readonly segment: PathSegment | null;
  /** Keys seen so far (objects only). */
  readonly keys: Set<string> | null;
  /** Objects: whether the next string is a key. */
  expectKey: boolean;
  /** Objects: the key being read and its position; arrays: the current index. */
  key: string;
  index: number;
}

const QUOTE = 34;
const BACKSLASH = 92;

/** The index of the quote closing the string whose opening quote is at `open`. Linear over the string. */
function closingQuote(text: string, open: number): number {
  let at = text.indexOf('"', open + 1);
  for (;;) {
    // A quote is escaped when an odd number of backslashes stands right before it.
    let slashes = 0;
    for (let k = at - 1; k > open && text.charCodeAt(k) === BACKSLASH; k -= 1) slashes += 1;
    if (slashes % 2 === 0) return at;
    at = text.indexOf('"', at + 1);
  }
}

function pathOf(stack: readonly Frame[], last: PathSegment | null): PathSegment[] {
  const path: PathSegment[] = [];
  for (let i = 1; i < stack.length; i += 1) path.push((stack[i] as Frame).segment as PathSegment);
  if (last !== null) path.push(last);
  return path;
}

function currentSegment(frame: Frame): PathSegment {
  return frame.isObject ? keySegment(frame.key, frame.index) : frame.index;
}

/**
 * Scans JSON text that JSON.parse ACCEPTED for a repeated key in any object (keys compared after unescaping, so
 * `"a"` and `"\u0061"` are the same key) and for containers nested deeper than `maxDepth` (the root container is
 * depth 1). Returns the first problem with the path it sits at (user-written keys shown only when plain, see
 * keySegment), or null. One pass, no recursion: linear in the text whatever its nesting.
 */
export function scanStrictJson(text: string, maxDepth: number): StrictJsonProblem | null {
  const stack: Frame[] = [];
  const n = text.length;
  for (let i = 0; i < n; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      const end = closingQuote(text, i);
      const frame = stack[stack.length - 1];
      if (frame?.isObject && frame.expectKey) {
        const raw = text.slice(i + 1, end);
        const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end + 1)) as string) : raw;
        const keys = frame.keys as Set<string>;
        frame.key = key;
        frame.index = keys.size;
        if (keys.has(key)) return { reason: 'duplicate_key', path: pathOf(stack, currentSegment(frame)) };
        keys.add(key);
        frame.expectKey = false;
      }
      i = end;
      continue;
    }
    if (code === 123 /* { */ || code === 91 /* [ */) {
      const parent = stack[stack.length - 1];
      const segment = parent ? currentSegment(parent) : null;
      if (stack.length + 1 > maxDepth) return { reason: 'too_deep', path: pathOf(stack, segment) };
      const isObject = code === 123;
      stack.push({
        isObject,
        segment,
        keys: isObject ? new Set() : null,
        expectKey: isObject,
        key: '',
        index: 0,
      });
      continue;
    }
    if (code === 125 /* } */ || code === 93 /* ] */) {
      stack.pop();
      continue;
    }
    if (code === 44 /* , */) {
      const frame = stack[stack.length - 1];
      if (!frame) continue;
      if (frame.isObject) frame.expectKey = true;
      else frame.index += 1;
    }
  }
  return null;
}
