// The source editor's document, in the browser: the API's editable document (env and header values hidden
// as `[REDACTED]` unless they are a bare `${NAME}` reference) edited one entry at a time. Pure: the form and its
// conversions to and from an entry are unit-tested. Nothing here judges an entry: the API decodes it (in the
// save preview) and names the fields it refuses.

export const PLACEHOLDER = '[REDACTED]';

export type RawEntry = Readonly<Record<string, unknown>>;

export interface EditorDocument {
  /** Keys beside mcpServers are kept as they were. */
  readonly rest: Readonly<Record<string, unknown>>;
  /** In the document's order. */
  readonly entries: readonly (readonly [string, RawEntry])[];
}

export type Transport = 'stdio' | 'http';

export interface KeyedRow {
  readonly key: string;
  readonly value: string;
}

/** What the entry form edits. Fields it does not know (oauth, options, …) stay in `kept`. */
export interface EntryForm {
  readonly name: string;
  readonly transport: Transport;
  readonly command: string;
  /** One argument per line. */
  readonly args: string;
  readonly cwd: string;
  readonly env: readonly KeyedRow[];
  readonly url: string;
  readonly headers: readonly KeyedRow[];
  readonly kept: RawEntry;
  /** The transport's `type` as written, kept when the transport is unchanged (`streamable-http`, absent). */
  readonly typeAsWritten: unknown;
}

const TRANSPORT_FIELDS = ['type', 'command', 'args', 'cwd', 'env', 'url', 'headers'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function documentOf(value: unknown): EditorDocument {
  if (!isRecord(value)) return { rest: {}, entries: [] };
  const { mcpServers, ...rest } = value;
  const entries = isRecord(mcpServers)
    ? Object.entries(mcpServers).map(([name, entry]) => [name, isRecord(entry) ? entry : {}] as const)
    : [];
  return { rest, entries };
}

/** The document as the API takes it. `__proto__` stays a key (defined, never assigned). */
export function toJson(document: EditorDocument): Record<string, unknown> {
  const servers: Record<string, unknown> = {};
  for (const [name, entry] of document.entries) {
    Object.defineProperty(servers, name, {
      value: entry,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return { ...document.rest, mcpServers: servers };
}

export function toText(document: EditorDocument): string {
  return `${JSON.stringify(toJson(document), null, 2)}\n`;
}

export function transportOf(entry: RawEntry): Transport {
  const type = entry['type'];
  if (type === 'http' || type === 'streamable-http') return 'http';
  if (type === undefined && typeof entry['url'] === 'string' && entry['command'] === undefined) return 'http';
  return 'stdio';
}

function text(value: unknown): string {
  return typeof value === 'string'
    ? value
    : value === undefined || value === null
      ? ''
      : JSON.stringify(value);
}

function rowsOf(value: unknown): KeyedRow[] {
  if (!isRecord(value)) return [];
  return Object.entries(value).map(([key, item]) => ({ key, value: text(item) }));
}

export function formOf(name: string, entry: RawEntry): EntryForm {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (!(TRANSPORT_FIELDS as readonly string[]).includes(key)) kept[key] = value;
  }
  const args = entry['args'];
  return {
    name,
    transport: transportOf(entry),
    command: text(entry['command']),
    args: Array.isArray(args) ? args.map(text).join('\n') : text(args),
    cwd: text(entry['cwd']),
    env: rowsOf(entry['env']),
    url: text(entry['url']),
    headers: rowsOf(entry['headers']),
    kept,
    typeAsWritten: entry['type'],
  };
}

export function emptyForm(): EntryForm {
  return {
    name: '',
    transport: 'stdio',
    command: '',
    args: '',
    cwd: '',
    env: [],
    url: '',
    headers: [],
    kept: {},
    typeAsWritten: 'stdio',
  };
}

function keyed(rows: readonly KeyedRow[]): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const row of rows) {
    if (row.key.trim() === '') continue;
    Object.defineProperty(out, row.key.trim(), {
      value: row.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The entry the form describes: only the chosen transport's fields, in the order .mcp.json files use. */
export function entryOf(form: EntryForm, before: Transport | null): RawEntry {
  const sameTransport = before === form.transport;
  const type = sameTransport && form.typeAsWritten !== undefined ? form.typeAsWritten : form.transport;
  const entry: Record<string, unknown> = { type };
  if (form.transport === 'stdio') {
    entry['command'] = form.command.trim();
    const args = form.args.split('\n').filter((line) => line.trim() !== '');
    if (args.length > 0) entry['args'] = args;
    if (form.cwd.trim() !== '') entry['cwd'] = form.cwd.trim();
    const env = keyed(form.env);
    if (env) entry['env'] = env;
  } else {
    entry['url'] = form.url.trim();
    const headers = keyed(form.headers);
    if (headers) entry['headers'] = headers;
  }
  return { ...entry, ...form.kept };
}

/** What the form cannot send at all (the API judges everything else): by field, in words. */
export function formProblems(
  form: EntryForm,
  otherNames: readonly string[],
): Readonly<Record<string, string>> {
  const problems: Record<string, string> = {};
  const name = form.name.trim();
  if (name === '') problems['name'] = 'Enter a name for the server, as agents will see it.';
  else if (otherNames.includes(name))
    problems['name'] = `Another server is already named ${name}: pick another name.`;
  if (form.transport === 'stdio' && form.command.trim() === '')
    problems['command'] = 'Enter the command that starts the server, for example npx.';
  if (form.transport === 'http' && form.url.trim() === '')
    problems['url'] = 'Enter the server’s URL, for example https://mcp.example.com/mcp.';
  const keys = (form.transport === 'stdio' ? form.env : form.headers).map((row) => row.key.trim());
  const repeated = keys.find((key, index) => key !== '' && keys.indexOf(key) !== index);
  if (repeated !== undefined)
    problems[form.transport === 'stdio' ? 'env' : 'headers'] = `${repeated} is listed twice: keep one.`;
  return problems;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}/g;

/** The variables an entry reads, and whether each has a default (`${NAME:-default}`). */
export function variablesOf(entry: RawEntry): { name: string; hasDefault: boolean }[] {
  const found = new Map<string, boolean>();
  const walk = (value: unknown): void => {
    if (typeof value === 'string') {
      for (const match of value.matchAll(REFERENCE)) {
        const name = match[1] as string;
        found.set(name, (found.get(name) ?? true) && match[2] !== undefined);
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value)) Object.values(value).forEach(walk);
  };
  walk(entry);
  return [...found].map(([name, hasDefault]) => ({ name, hasDefault }));
}

/** Adds or replaces entries from an imported file; returns which names were added and which replaced. */
export function mergeImported(
  document: EditorDocument,
  imported: EditorDocument,
): { document: EditorDocument; added: string[]; replaced: string[] } {
  const entries = [...document.entries];
  const added: string[] = [];
  const replaced: string[] = [];
  for (const [name, entry] of imported.entries) {
    const at = entries.findIndex(([existing]) => existing === name);
    if (at === -1) {
      entries.push([name, entry]);
      added.push(name);
    } else {
      entries[at] = [name, entry];
      replaced.push(name);
    }
  }
  return { document: { ...document, entries }, added, replaced };
}

/** Replaces (or adds, when `previousName` is null) one entry, keeping its place in the document. */
export function withEntry(
  document: EditorDocument,
  previousName: string | null,
  name: string,
  entry: RawEntry,
): EditorDocument {
  const entries = [...document.entries];
  const at = previousName === null ? -1 : entries.findIndex(([existing]) => existing === previousName);
  if (at === -1) entries.push([name, entry]);
  else entries[at] = [name, entry];
  return { ...document, entries };
}

export function withoutEntry(document: EditorDocument, name: string): EditorDocument {
  return { ...document, entries: document.entries.filter(([existing]) => existing !== name) };
}

/** Which form field an entry problem's path points at (paths are inside the entry: `['args', 2]`). */
export function fieldOfProblemPath(path: readonly unknown[]): string {
  const first = path[0];
  if (first === 'command' || first === 'args' || first === 'cwd' || first === 'env') return first;
  if (first === 'url' || first === 'headers') return first;
  if (first === 'type') return 'transport';
  return 'entry';
}
