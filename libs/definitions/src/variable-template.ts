/**
 * A definition string with variable references: `${VAR}` and `${VAR:-default}`. `VAR` is an identifier
 * (`[A-Za-z_][A-Za-z0-9_]*`); the default is any text without `}`. A `$` not followed by `{` is literal text.
 * There is no escape and no nesting: `${` always starts a reference, and a malformed one (unclosed, empty, a bad
 * name, another operator) refuses the field instead of being kept as literal text, so a typo never ships a
 * half-expanded command line.
 */
export type TemplatePart =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'variable'; readonly name: string; readonly fallback: string | undefined };

/**
 * A value as written. Most values reference no variable: those stay the very string JSON.parse made (no parts, no
 * copy), which keeps ten thousand decoded entries light. A value with references is its list of parts.
 */
export type Template = string | readonly TemplatePart[];

const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Parses one string; null when a reference is malformed. Linear in its length. */
export function parseTemplate(text: string): Template | null {
  let at = text.indexOf('${');
  if (at < 0) return text;
  const parts: TemplatePart[] = [];
  let from = 0;
  while (at >= 0) {
    const close = text.indexOf('}', at + 2);
    if (close < 0) return null;
    const inner = text.slice(at + 2, close);
    const operator = inner.indexOf(':-');
    const name = operator < 0 ? inner : inner.slice(0, operator);
    if (!NAME_PATTERN.test(name)) return null;
    // `${A:-${B}}` is nesting, which this syntax does not have: refuse rather than read `${B` as the default.
    if (operator >= 0 && inner.includes('${', operator)) return null;
    if (at > from) parts.push({ kind: 'text', text: text.slice(from, at) });
    parts.push({ kind: 'variable', name, fallback: operator < 0 ? undefined : inner.slice(operator + 2) });
    from = close + 1;
    at = text.indexOf('${', from);
  }
  if (from < text.length) parts.push({ kind: 'text', text: text.slice(from) });
  return parts;
}
