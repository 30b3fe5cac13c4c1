import { UriTemplate } from '@modelcontextprotocol/server';

// Whether a caller's resources/read URI matches one of the surface's templates (decision 0104), by the SDK's RFC
// 6570 matcher, which builds ONE backtracking regular expression from the template. The template is an upstream's
// (its catalog), the URI the caller's: the expression's cost on a URI that does not match grows with the URI's
// length to the power of the number of unbounded groups that can take the same characters (x://{a}{b}{c}{d} on
// 1,024 characters: minutes of the gateway's one thread, for every tenant it serves). So a template is matched
// only when its expressions cannot trade characters: every expression but the last is a simple, label or path
// one (its group never takes a `/`) and a `/` separates it from the next one. There each group has at most one
// place it can end, and matching is linear in the URI. Any other template matches nothing: its resources are
// still read by their listed URIs.

/** Compiled upstream templates, shared by every session (bounded: cleared whole when it grows past the bound). */
const compiled = new Map<string, UriTemplate | null>();
const MAX_COMPILED_TEMPLATES = 2_000;

const EXPRESSION = /\{([^}]*)\}/g;
/** Operators whose group never takes a `/`: simple, label, path segment, path-style parameter. */
const CONFINED = new Set(['', '.', '/', ';']);

/** Whether the SDK's expression for this template is linear in the URI it is matched against (see above). */
export function isLinearTemplate(uriTemplate: string): boolean {
  const expressions = [...uriTemplate.matchAll(EXPRESSION)];
  for (let i = 0; i < expressions.length - 1; i += 1) {
    const current = expressions[i]!;
    const next = expressions[i + 1]!;
    const operator = /^[+#./;?&]/.exec(current[1] ?? '')?.[0] ?? '';
    if (!CONFINED.has(operator)) return false;
    const gap = uriTemplate.slice(current.index + current[0].length, next.index);
    if (!gap.includes('/') && !(next[1] ?? '').startsWith('/')) return false;
  }
  return true;
}

function compile(uriTemplate: string): UriTemplate | null {
  if (!isLinearTemplate(uriTemplate)) return null;
  try {
    return new UriTemplate(uriTemplate);
  } catch {
    return null;
  }
}

/** RFC 6570 matching by the SDK's UriTemplate; a template it cannot compile, or not linear, matches nothing. */
export function matchesTemplate(uriTemplate: string, uri: string): boolean {
  let template = compiled.get(uriTemplate);
  if (template === undefined) {
    template = compile(uriTemplate);
    if (compiled.size >= MAX_COMPILED_TEMPLATES) compiled.clear();
    compiled.set(uriTemplate, template);
  }
  if (template === null) return false;
  try {
    return template.match(uri) !== null;
  } catch {
    return false;
  }
}
