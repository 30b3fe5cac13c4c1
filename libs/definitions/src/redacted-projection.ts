import type { ServerOptions } from '@gatehouse/catalog';
import { escapeInvisible } from './invisible-character';
import { maskArgs, maskArgument, maskText, maskUrl } from './literal-masker';
import type { MaterializedDefinition, MaterializedKeyed, MaterializedText } from './variable-materializer';

/**
 * Env and header KEYS, never values: the key alone tells servers apart, and a value there is too often a
 * credential of no recognisable shape. Every key is shown by name, however much it looks like a credential: a
 * key decides what the server does (`npm_config_node_options` runs code through npm), so a reviewer who cannot
 * read one cannot judge the entry. `none` and `redacted` stay distinguishable answers.
 */
export type KeysOnly =
  { readonly state: 'none' } | { readonly state: 'redacted'; readonly keys: readonly string[] };

export interface StdioProjection {
  readonly kind: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Command and args as one readable line (POSIX-style quoting, for display only). */
  readonly commandLine: string;
  readonly cwd: string | null;
  readonly env: KeysOnly;
}

export interface HttpProjection {
  readonly kind: 'http';
  readonly url: string;
  readonly headers: KeysOnly;
  readonly headersHelper: readonly string[] | null;
  readonly oauth: {
    readonly clientId: string | null;
    readonly scopes: readonly string[];
    readonly allowSharedCredential: boolean;
  } | null;
  readonly principalHeader: string | null;
}

/** What may be shown of a definition anywhere: dashboards, API responses, logs, audit rows. */
export interface RedactedProjection {
  readonly transport: StdioProjection | HttpProjection;
  readonly requiresTrustedWorkspace: boolean;
  readonly options: ServerOptions;
}

/**
 * The value with each secret or unset stretch replaced by its reference (`${NAME}`), which tells the reader where
 * the value comes from without showing it. Non-secret variables show their value like any literal. Since the
 * secret text never enters the result, nothing after this step can leak it.
 */
export function visibleText(value: MaterializedText): string {
  if (value.stretches.length === 0) return value.value;
  let out = '';
  let at = 0;
  let replaced = false;
  for (const stretch of value.stretches) {
    if (!stretch.secret && stretch.from !== 'unset') continue;
    out += `${value.value.slice(at, stretch.start)}\${${stretch.variable}}`;
    at = stretch.end;
    replaced = true;
  }
  return replaced ? out + value.value.slice(at) : value.value;
}

function keysOnly(items: readonly MaterializedKeyed[]): KeysOnly {
  if (items.length === 0) return { state: 'none' };
  return {
    state: 'redacted',
    keys: items.map((item) => item.key),
  };
}

// Quote what would not read as one word; `$`, braces and brackets stay bare so `${NAME}` and the mask read plainly.
const NEEDS_QUOTES = /[\s'"\\`|&;<>()]/;

function quoteForDisplay(word: string): string {
  if (word.length > 0 && !NEEDS_QUOTES.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A masked command line for display: command then args, each quoted when it would not read as one word. */
export function formatCommandLine(command: string, args: readonly string[]): string {
  let line = quoteForDisplay(command);
  for (const arg of args) line += ` ${quoteForDisplay(arg)}`;
  return line;
}

/**
 * The redacted projection of a materialized definition: command line, cwd and URL readable with their secret
 * stretches replaced by references and credential-shaped literals masked (URL userinfo and credential-named
 * query/fragment parameters included), and every invisible character escaped (`\u202E`), so what a reviewer reads
 * names every character that runs; env and header keys by name, never their values. Linear in the size of the definition.
 */
export function projectDefinition(definition: MaterializedDefinition): RedactedProjection {
  const t = definition.transport;
  let transport: StdioProjection | HttpProjection;
  switch (t.kind) {
    case 'stdio': {
      const command = escapeInvisible(maskArgument(visibleText(t.command)));
      const args = maskArgs(t.args.map(visibleText)).map(escapeInvisible);
      transport = {
        kind: 'stdio',
        command,
        args,
        commandLine: formatCommandLine(command, args),
        cwd: t.cwd ? escapeInvisible(maskText(visibleText(t.cwd))) : null,
        env: keysOnly(t.env),
      };
      break;
    }
    case 'http':
      transport = {
        kind: 'http',
        url: escapeInvisible(maskUrl(visibleText(t.url))),
        headers: keysOnly(t.headers),
        headersHelper: t.headersHelper ? maskArgs(t.headersHelper).map(escapeInvisible) : null,
        oauth: t.oauth
          ? {
              clientId: t.oauth.clientId,
              scopes: t.oauth.scopes,
              allowSharedCredential: t.oauth.allowSharedCredential,
            }
          : null,
        principalHeader: t.principalHeader,
      };
      break;
    default: {
      const unreachable: never = t;
      throw new Error(`unknown transport ${String(unreachable)}`);
    }
  }
  return {
    transport,
    requiresTrustedWorkspace: definition.requiresTrustedWorkspace,
    options: definition.options,
  };
}
