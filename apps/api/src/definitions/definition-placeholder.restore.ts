import { REDACTED, maskArgs, maskText, maskUrl } from '@gatehouse/definitions';

// An edit sends the whole document. Where the projection showed a masked stretch, the editor may send the
// value back exactly as it was shown (`[REDACTED]` in place): that means "keep the stored value". A value with
// the placeholder that is not exactly how the stored value at the same place was shown is refused, so a
// placeholder is never stored as if it were a real value.

export type RestoreResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly paths: readonly string[] };

function shownAs(stored: string): readonly string[] {
  return [REDACTED, maskText(stored), maskUrl(stored), maskArgs([stored])[0] ?? REDACTED];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(container: unknown, key: string | number): unknown {
  if (typeof key === 'number') return Array.isArray(container) ? (container[key] as unknown) : undefined;
  return isRecord(container) && Object.hasOwn(container, key) ? container[key] : undefined;
}

export function restorePlaceholders(sent: unknown, stored: unknown): RestoreResult {
  const failures: string[] = [];
  const walk = (value: unknown, before: unknown, path: readonly (string | number)[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes(REDACTED)) return value;
      if (typeof before === 'string' && shownAs(before).includes(value)) return before;
      failures.push(path.join('.'));
      return value;
    }
    if (Array.isArray(value)) return value.map((item, index) => walk(item, child(before, index), [...path, index]));
    if (isRecord(value)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        Object.defineProperty(out, key, {
          value: walk(item, child(before, key), [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  const value = walk(sent, stored, []);
  return failures.length > 0 ? { ok: false, paths: failures } : { ok: true, value };
}
