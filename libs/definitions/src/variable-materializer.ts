import type { ServerOptions } from '@gatehouse/catalog';
import type { PathSegment } from './decode-problem';
import { hasParentSegment } from './definition-decoder';
import type { KeyedTemplate, ServerDefinition } from './definition-types';
import { hasInvisibleCharacter } from './invisible-character';
import type { OAuthSettings } from './oauth-settings';
import { isCredentialShapedName } from './secret-shape';
import type { Template } from './variable-template';

/** Where variables are kept; a principal's view reads `user` over `workspace` over `tenant`. */
export type VariableScope = 'user' | 'workspace' | 'tenant';

/** The variables the host supplies, per scope. Values are never returned by this lib except in a materialization. */
export interface VariableValues {
  readonly tenant?: Readonly<Record<string, string>>;
  readonly workspace?: Readonly<Record<string, string>>;
  readonly user?: Readonly<Record<string, string>>;
}

/** Where a stretch of materialized text came from: a scope, the reference's default, or nowhere (unset). */
export type StretchOrigin = VariableScope | 'default' | 'unset';

/**
 * A stretch of a materialized value that a variable reference produced (literal text is everything between
 * stretches). `secret` when the variable's NAME is credential-shaped, whichever scope or default produced it.
 * An unset reference is a zero-length stretch with `from: 'unset'`.
 */
export interface Stretch {
  readonly start: number;
  readonly end: number;
  readonly variable: string;
  readonly from: StretchOrigin;
  readonly secret: boolean;
}

export interface MaterializedText {
  readonly value: string;
  /** In order, non-overlapping. Empty when the value is all literal text. */
  readonly stretches: readonly Stretch[];
}

export interface MaterializedKeyed {
  readonly key: string;
  readonly value: MaterializedText;
  /** The key is credential-shaped, so the WHOLE value is secret, whatever produced it. */
  readonly secretKey: boolean;
}

export interface MaterializedStdio {
  readonly kind: 'stdio';
  readonly command: MaterializedText;
  readonly args: readonly MaterializedText[];
  readonly env: readonly MaterializedKeyed[];
  readonly cwd: MaterializedText | null;
}

export interface MaterializedHttp {
  readonly kind: 'http';
  readonly url: MaterializedText;
  readonly headers: readonly MaterializedKeyed[];
  readonly headersHelper: readonly string[] | null;
  readonly oauth: OAuthSettings | null;
  readonly principalHeader: string | null;
}

export interface MaterializedDefinition {
  readonly transport: MaterializedStdio | MaterializedHttp;
  readonly requiresTrustedWorkspace: boolean;
  readonly options: ServerOptions;
}

/** An unset variable without default, with the exact field it sits in. */
export interface UnsetVariable {
  readonly path: readonly PathSegment[];
  readonly variable: string;
}

/**
 * A value that materialized into something unusable: a variable's value put a line break into a header, an
 * invisible character into the command, cwd or URL, or a `..` segment into the cwd (the decoder refuses the same
 * in literal text).
 */
export interface MaterializeProblem {
  readonly reason: 'invalid_header_value' | 'empty_command' | 'invisible_character' | 'cwd_parent_segment';
  readonly path: readonly PathSegment[];
}

/** Which variable a definition read, from where (names only, never values). */
export interface VariableUse {
  readonly variable: string;
  readonly from: VariableScope | 'default';
}

export interface Materialization {
  readonly definition: MaterializedDefinition;
  /** Non-empty: the entry is unusable for activation (never materialized as an empty string). */
  readonly unset: readonly UnsetVariable[];
  readonly problems: readonly MaterializeProblem[];
  readonly uses: readonly VariableUse[];
}

/** Shared by every all-literal value (most of them): one fewer allocation per field. */
const NO_STRETCHES: readonly Stretch[] = Object.freeze([]);

// Memoized: the same few variable names recur across thousands of entries. Bounded, so hostile names cannot grow it.
const shapeCache = new Map<string, boolean>();
const SHAPE_CACHE_LIMIT = 4096;

function secretName(name: string): boolean {
  let known = shapeCache.get(name);
  if (known === undefined) {
    known = isCredentialShapedName(name);
    if (shapeCache.size >= SHAPE_CACHE_LIMIT) shapeCache.clear();
    shapeCache.set(name, known);
  }
  return known;
}

function lookup(record: Readonly<Record<string, string>> | undefined, name: string): string | undefined {
  if (!record || !Object.hasOwn(record, name)) return undefined;
  const value = record[name];
  if (typeof value !== 'string') throw new TypeError('variable values must be strings');
  return value;
}

class Materializer {
  readonly unset: UnsetVariable[] = [];
  readonly problems: MaterializeProblem[] = [];
  readonly uses: VariableUse[] = [];

  constructor(private readonly variables: VariableValues) {}

  private use(variable: string, from: VariableScope | 'default'): void {
    // A definition reads a handful of variables: a scan beats a map here.
    for (const known of this.uses) if (known.variable === variable && known.from === from) return;
    this.uses.push({ variable, from });
  }

  /** @param path where the text sits, or how to render it (only needed to report an unset variable). */
  text(template: Template, path: readonly PathSegment[] | (() => readonly PathSegment[])): MaterializedText {
    if (typeof template === 'string') return { value: template, stretches: NO_STRETCHES };
    let value = '';
    const stretches: Stretch[] = [];
    for (const part of template) {
      if (part.kind === 'text') {
        value += part.text;
        continue;
      }
      const secret = secretName(part.name);
      let produced: string | undefined;
      let from: StretchOrigin;
      if ((produced = lookup(this.variables.user, part.name)) !== undefined) from = 'user';
      else if ((produced = lookup(this.variables.workspace, part.name)) !== undefined) from = 'workspace';
      else if ((produced = lookup(this.variables.tenant, part.name)) !== undefined) from = 'tenant';
      else if (part.fallback !== undefined) {
        produced = part.fallback;
        from = 'default';
      } else {
        this.unset.push({ path: typeof path === 'function' ? path() : path, variable: part.name });
        stretches.push({
          start: value.length,
          end: value.length,
          variable: part.name,
          from: 'unset',
          secret,
        });
        continue;
      }
      this.use(part.name, from);
      stretches.push({
        start: value.length,
        end: value.length + produced.length,
        variable: part.name,
        from,
        secret,
      });
      value += produced;
    }
    return { value, stretches };
  }

  keyed(items: readonly KeyedTemplate[], field: 'env' | 'headers'): MaterializedKeyed[] {
    const out: MaterializedKeyed[] = [];
    for (const item of items) {
      // A decoded key is a valid env or header name: named as itself (keys are never hidden).
      const path = () => [field, item.key];
      const value = this.text(item.value, path);
      if (field === 'headers' && /[\r\n\0]/.test(value.value)) {
        this.problems.push({ reason: 'invalid_header_value', path: path() });
      }
      out.push({ key: item.key, value, secretKey: secretName(item.key) });
    }
    return out;
  }
}

/**
 * Materializes `${VAR}` and `${VAR:-default}` in command, args, env values, cwd, url and header values (never in
 * the header helper's argv, which is an exact command line the host allows as written). Each variable is looked up
 * user, then workspace, then tenant: the caller passes only the scopes its view may read (the workspace-alone
 * view passes no user variables). Every stretch records which variable produced it and from where, and whether
 * it is secret; every consumer (fingerprint, identity, projection, lease) reads that record.
 */
export function materializeDefinition(
  definition: ServerDefinition,
  variables: VariableValues,
): Materialization {
  const m = new Materializer(variables);
  const t = definition.transport;
  let transport: MaterializedStdio | MaterializedHttp;
  if (t.kind === 'stdio') {
    const command = m.text(t.command, ['command']);
    if (command.value.length === 0 && command.stretches.every((s) => s.from !== 'unset')) {
      m.problems.push({ reason: 'empty_command', path: ['command'] });
    }
    if (hasInvisibleCharacter(command.value))
      m.problems.push({ reason: 'invisible_character', path: ['command'] });
    const args = t.args.map((arg, i) => m.text(arg, ['args', i]));
    const env = m.keyed(t.env, 'env');
    const cwd = t.cwd ? m.text(t.cwd, ['cwd']) : null;
    if (cwd && hasInvisibleCharacter(cwd.value))
      m.problems.push({ reason: 'invisible_character', path: ['cwd'] });
    else if (cwd && hasParentSegment(cwd.value))
      m.problems.push({ reason: 'cwd_parent_segment', path: ['cwd'] });
    transport = { kind: 'stdio', command, args, env, cwd };
  } else {
    const url = m.text(t.url, ['url']);
    if (hasInvisibleCharacter(url.value)) m.problems.push({ reason: 'invisible_character', path: ['url'] });
    transport = {
      kind: 'http',
      url,
      headers: m.keyed(t.headers, 'headers'),
      headersHelper: t.headersHelper,
      oauth: t.oauth,
      principalHeader: t.principalHeader,
    };
  }
  return {
    definition: {
      transport,
      requiresTrustedWorkspace: definition.requiresTrustedWorkspace,
      options: definition.options,
    },
    unset: m.unset,
    problems: m.problems,
    uses: m.uses,
  };
}
