import { isPlainRecord } from '@gatehouse/catalog';
import {
  keySegment,
  MAX_ENTRY_DEPTH,
  MAX_PROBLEMS_PER_ENTRY,
  type EntryProblem,
  type PathSegment,
} from './decode-problem';

interface Node {
  readonly parent: Node | null;
  readonly key: string | number;
  readonly index: number;
}

/** Rendered only when a problem is reported, so the common (clean) walk builds no path strings. */
function pathOf(node: Node | null): PathSegment[] {
  const path: PathSegment[] = [];
  for (let at = node; at; at = at.parent)
    path.push(typeof at.key === 'number' ? at.key : keySegment(at.key, at.index));
  return path.reverse();
}

/**
 * Judges an entry's structure as a whole before any member is read: every container is plain data (arrays and
 * plain objects, as JSON.parse builds them), no member anywhere is named `__proto__`, and nothing nests deeper
 * than {@link MAX_ENTRY_DEPTH}. Iterative, so a hostile depth cannot exhaust the stack; linear in the entry's size.
 */
export function checkEntryStructure(entry: Readonly<Record<string, unknown>>): EntryProblem[] {
  const problems: EntryProblem[] = [];
  const stack: { value: object; depth: number; node: Node | null }[] = [
    { value: entry, depth: 0, node: null },
  ];
  while (stack.length > 0 && problems.length < MAX_PROBLEMS_PER_ENTRY) {
    const { value, depth, node } = stack.pop() as { value: object; depth: number; node: Node | null };
    const isArray = Array.isArray(value);
    if (!isArray && !isPlainRecord(value)) {
      problems.push({ reason: 'wrong_type', path: pathOf(node) });
      continue;
    }
    const keys = isArray ? null : Object.keys(value);
    const count = isArray ? value.length : (keys as string[]).length;
    for (let i = 0; i < count; i += 1) {
      const key = isArray ? i : ((keys as string[])[i] as string);
      if (key === '__proto__') {
        problems.push({ reason: 'forbidden_key', path: pathOf({ parent: node, key, index: i }) });
        continue;
      }
      const child: unknown = (value as Record<string | number, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      const childNode: Node = { parent: node, key, index: i };
      if (depth + 1 > MAX_ENTRY_DEPTH) {
        problems.push({ reason: 'too_deep', path: pathOf(childNode) });
        continue;
      }
      stack.push({ value: child, depth: depth + 1, node: childNode });
    }
  }
  return problems.slice(0, MAX_PROBLEMS_PER_ENTRY);
}
