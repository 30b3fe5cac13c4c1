import type { ProjectionChangeView } from '@/views/approval-views';
import type { SourceRefView } from '@/views/definition-views';

// What an approver reads as "the reviewed definition": what runs (a command line with its cwd, or a URL), the
// env and header KEYS with a mark on each one that was added, removed or whose value changed since the last
// approval, the options, and where it may run — built from the API's redacted projection and its field diff.
// Pure: the page renders the model; a projection of a shape this does not know is shown as JSON alone.

export type KeyMark = 'added' | 'removed' | 'value_changed' | null;

export interface ReviewedKey {
  readonly key: string;
  readonly mark: KeyMark;
}

export interface ReviewedField {
  readonly label: string;
  readonly value: string;
  readonly changed: boolean;
}

export interface ReviewModel {
  readonly kind: 'stdio' | 'http';
  /** The command line or the URL. */
  readonly target: ReviewedField;
  /** cwd, headers helper, principal header, OAuth: what else decides how it runs. */
  readonly details: readonly ReviewedField[];
  readonly keysLabel: 'Environment variables' | 'Headers';
  readonly keys: readonly ReviewedKey[];
  readonly options: readonly ReviewedField[];
  readonly requiresTrustedWorkspace: ReviewedField;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function keysOf(value: unknown): string[] {
  const keys = record(value);
  return keys !== null && keys['state'] === 'redacted' ? stringList(keys['keys']) : [];
}

/** Whether some change lies at or below `path` (or replaces a parent of it). */
function touched(changes: readonly ProjectionChangeView[], path: readonly string[]): boolean {
  return changes.some((change) => {
    const length = Math.min(change.path.length, path.length);
    for (let i = 0; i < length; i += 1) if (change.path[i] !== path[i]) return false;
    return true;
  });
}

/** The keys listed now, plus any removed since the last approval, each with its mark. */
function markedKeys(
  section: 'env' | 'headers',
  current: readonly string[],
  changes: readonly ProjectionChangeView[],
): ReviewedKey[] {
  let before: readonly string[] | undefined;
  const valueMarks = new Map<string, ProjectionChangeView['kind']>();
  for (const change of changes) {
    const [root, member, part, key] = change.path;
    if (root !== 'transport' || member !== section) continue;
    if (part === 'values' && key !== undefined && change.path.length === 4) valueMarks.set(key, change.kind);
    else if (part === 'keys' && change.path.length === 3) before = stringList(change.before);
    else if (part === undefined) before = keysOf(change.before);
  }
  const previous = before === undefined ? undefined : new Set(before);
  const marks: ReviewedKey[] = current.map((key) => {
    if (previous !== undefined && !previous.has(key)) return { key, mark: 'added' };
    const value = valueMarks.get(key);
    if (value === 'added') return { key, mark: previous === undefined ? 'added' : 'value_changed' };
    if (value !== undefined) return { key, mark: 'value_changed' };
    return { key, mark: null };
  });
  const now = new Set(current);
  const removed = new Set<string>();
  for (const key of before ?? []) if (!now.has(key)) removed.add(key);
  for (const [key, kind] of valueMarks) if (kind === 'removed' && !now.has(key)) removed.add(key);
  return [...marks, ...[...removed].map((key) => ({ key, mark: 'removed' as const }))];
}

const OPTION_LABELS: Readonly<Record<string, string>> = {
  allowTools: 'Allowed tools',
  toolAxes: 'Tool axes',
  toolFaces: 'Tool faces',
  contentOrigin: 'Content origin',
  startupTimeoutMs: 'Startup timeout',
  elicitation: 'Elicitation',
};

function optionValue(name: string, value: unknown): string {
  if (name === 'startupTimeoutMs' && typeof value === 'number') return `${value.toLocaleString('en-US')} ms`;
  if (name === 'elicitation' && typeof value === 'boolean')
    return value ? 'On: the server may ask the person questions' : 'Off';
  if (name === 'allowTools' && Array.isArray(value))
    return value.length === 0 ? 'None' : stringList(value).join(', ');
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** The model of a projection with the definitions API's shape; null for anything else (shown as JSON). */
export function reviewModelOf(
  projection: Readonly<Record<string, unknown>>,
  changes: readonly ProjectionChangeView[],
): ReviewModel | null {
  const transport = record(projection['transport']);
  if (transport === null) return null;
  const at = (...path: string[]) => touched(changes, ['transport', ...path]);
  const details: ReviewedField[] = [];
  let kind: ReviewModel['kind'];
  let target: ReviewedField;
  let keys: ReviewedKey[];
  if (transport['kind'] === 'stdio' && typeof transport['commandLine'] === 'string') {
    kind = 'stdio';
    target = {
      label: 'Command line',
      value: transport['commandLine'],
      changed: at('command') || at('args') || at('commandLine'),
    };
    const cwd = transport['cwd'];
    details.push({
      label: 'Working directory',
      value: typeof cwd === 'string' ? cwd : 'The first root the worker pool allows',
      changed: at('cwd'),
    });
    keys = markedKeys('env', keysOf(transport['env']), changes);
  } else if (transport['kind'] === 'http' && typeof transport['url'] === 'string') {
    kind = 'http';
    target = { label: 'URL', value: transport['url'], changed: at('url') };
    const helper = stringList(transport['headersHelper']);
    if (helper.length > 0 || at('headersHelper'))
      details.push({
        label: 'Headers helper',
        value: helper.length > 0 ? helper.join(' ') : 'None',
        changed: at('headersHelper'),
      });
    const principal = transport['principalHeader'];
    if (typeof principal === 'string' || at('principalHeader'))
      details.push({
        label: 'Principal header',
        value: typeof principal === 'string' ? principal : 'None',
        changed: at('principalHeader'),
      });
    const oauth = record(transport['oauth']);
    if (oauth !== null || at('oauth')) {
      const scopes = stringList(oauth?.['scopes']);
      details.push({
        label: 'OAuth sign-in',
        value:
          oauth === null
            ? 'None'
            : `${scopes.length > 0 ? `Scopes ${scopes.join(' ')}` : 'No scopes'}; ${oauth['allowSharedCredential'] === true ? 'a workspace credential may be shared' : 'each person signs in'}`,
        changed: at('oauth'),
      });
    }
    keys = markedKeys('headers', keysOf(transport['headers']), changes);
  } else {
    return null;
  }
  const options = Object.entries(record(projection['options']) ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ({
      label: OPTION_LABELS[name] ?? name,
      value: optionValue(name, value),
      changed: touched(changes, ['options', name]),
    }));
  const trusted = projection['requiresTrustedWorkspace'] === true;
  return {
    kind,
    target,
    details,
    keysLabel: kind === 'stdio' ? 'Environment variables' : 'Headers',
    keys,
    options,
    requiresTrustedWorkspace: {
      label: 'Trusted workspaces only',
      value: trusted ? 'Yes: refused while the workspace is untrusted' : 'No',
      changed: touched(changes, ['requiresTrustedWorkspace']),
    },
  };
}

/** Where a definition of this transport may run at all (the operator's and the tenant's rules, in words). */
export function whereItMayRun(kind: ReviewModel['kind']): string {
  return kind === 'stdio'
    ? 'Only on worker pools whose operator allows stdio servers, and only if the tenant’s host policy allows this command line.'
    : 'From any worker pool open to this tenant, once URL admission accepts the address (https; private ranges only where the operator and the host policy both allow them).';
}

export interface NameLookup {
  workspaceName(workspaceId: string): string | undefined;
  personName(userId: string): string | undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A source's origin with its ids as names: `project:<uuid>` reads "Workspace platform-core", `user:<uuid>`
 * "Ada Approver's own", `local:<workspace>:<user>` both; managed and plugin origins name themselves. Null when
 * an id has no name the reader may see (the page then shows the origin as it is).
 */
export function originInWords(source: SourceRefView, names: NameLookup): string | null {
  const [, ...parts] = source.origin.split(':');
  const workspace = (id: string | undefined) =>
    id !== undefined && UUID.test(id) ? names.workspaceName(id) : undefined;
  const person = (id: string | undefined) =>
    id !== undefined && UUID.test(id) ? names.personName(id) : undefined;
  switch (source.tier) {
    case 'project': {
      const name = workspace(parts[0]);
      return name === undefined ? null : `Workspace ${name}`;
    }
    case 'user': {
      const name = person(parts[0]);
      return name === undefined ? null : `${name}’s own`;
    }
    case 'local': {
      const ws = workspace(parts[0]);
      const who = person(parts[1]);
      return ws === undefined || who === undefined ? null : `${who}’s own, in workspace ${ws}`;
    }
    case 'managed':
    case 'plugin':
      return parts.join(':') || null;
  }
}

/** Names on a page about one workspace: that workspace's name, and the signed-in person's own. */
export function sourceNames(
  workspace: { readonly id: string; readonly name: string },
  self?: { readonly id: string; readonly name: string },
): NameLookup {
  return {
    workspaceName: (id) => (id === workspace.id ? workspace.name : undefined),
    personName: (id) => (self !== undefined && id === self.id ? self.name : undefined),
  };
}
