import {
  REDACTED,
  editableKeyOf,
  escapeInvisible,
  hiddenKeyPosition,
  maskArgs,
  maskText,
  maskUrl,
} from '@gatehouse/definitions';

// An edit sends the whole document. Where the projection showed a masked stretch, the editor may send the
// value back exactly as it was shown (`[REDACTED]` in place): that means "keep the stored value". A value with
// the placeholder that is not exactly how the stored value at the same place was shown is refused, so a
// placeholder is never stored as if it were a real value. A key the editable document hid (`[REDACTED #2]`, see
// editableKeyOf) stands for the stored key at that position when that key hides as exactly this. Env and header
// keys are never hidden: they come back as themselves, and their `[REDACTED]` values keep the stored ones.

export type RestoreResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly paths: readonly string[]; readonly reason: RestoreRefusal };

export type RestoreRefusal = 'placeholder_mismatch' | 'destination_changed';

// A kept secret may only stay where it was: if an entry keeps any stored value through a placeholder, every field
// that decides what runs or where it connects must be unchanged, or a writer who cannot read a secret could point
// the entry at their own server and have the secret sent there. Changing those fields needs the value re-entered.
const DESTINATION_FIELDS = ['type', 'url', 'command', 'args', 'cwd', 'headersHelper'] as const;

/** Every way a projection may have shown the stored value: masked, then with invisible characters escaped. */
function shownAs(stored: string): readonly string[] {
  const masked = [maskText(stored), maskUrl(stored), maskArgs([stored])[0] ?? REDACTED];
  return [REDACTED, ...masked, ...masked.map(escapeInvisible)];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(container: unknown, key: string | number): unknown {
  if (typeof key === 'number') return Array.isArray(container) ? (container[key] as unknown) : undefined;
  return isRecord(container) && Object.hasOwn(container, key) ? container[key] : undefined;
}

/** The stored key a hidden key stands for; any other key is itself. */
function storedKeyOf(sent: string, before: unknown): string {
  const position = hiddenKeyPosition(sent);
  if (position === null || !isRecord(before)) return sent;
  const stored = Object.keys(before)[position];
  return stored !== undefined && editableKeyOf(stored, position) === sent ? stored : sent;
}

export function restorePlaceholders(sent: unknown, stored: unknown): RestoreResult {
  const failures: string[] = [];
  const keptIn = new Set<string>();
  const walk = (value: unknown, before: unknown, path: readonly (string | number)[]): unknown => {
    if (typeof value === 'string') {
      if (!value.includes(REDACTED)) return value;
      if (typeof before === 'string' && shownAs(before).includes(value)) {
        if (path[0] === 'mcpServers' && typeof path[1] === 'string') keptIn.add(path[1]);
        return before;
      }
      failures.push(path.join('.'));
      return value;
    }
    if (Array.isArray(value))
      return value.map((item, index) => walk(item, child(before, index), [...path, index]));
    if (isRecord(value)) {
      const out: Record<string, unknown> = {};
      for (const [sentKey, item] of Object.entries(value)) {
        const key = storedKeyOf(sentKey, before);
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
  if (failures.length > 0) return { ok: false, paths: failures, reason: 'placeholder_mismatch' };
  const moved = [...keptIn].filter((name) => {
    const now = child(child(value, 'mcpServers'), name);
    const before = child(child(stored, 'mcpServers'), name);
    return DESTINATION_FIELDS.some(
      (field) => JSON.stringify(child(now, field)) !== JSON.stringify(child(before, field)),
    );
  });
  if (moved.length > 0)
    return { ok: false, paths: moved.map((name) => `mcpServers.${name}`), reason: 'destination_changed' };
  return { ok: true, value };
}
