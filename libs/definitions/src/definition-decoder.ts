import {
  isHeaderName,
  isPlainRecord,
  maySetHeader,
  readPrincipalHeader,
  readServerOptions,
  SERVER_OPTION_NAMES,
  type OptionPath,
  type ServerOptions,
} from '@gatehouse/catalog';
import { claimsApprovalOrTrust, isClientSecretKey } from './approval-claim.guard';
import {
  keySegment,
  MAX_ARGUMENTS_PER_ENTRY,
  MAX_PROBLEMS_PER_ENTRY,
  type EntryProblem,
  type PathSegment,
} from './decode-problem';
import type {
  HttpTransportDefinition,
  KeyedTemplate,
  ServerDefinition,
  StdioTransportDefinition,
} from './definition-types';
import { checkEntryStructure } from './entry-structure.guard';
import { hasInvisibleCharacter } from './invisible-character';
import type { OAuthSettings } from './oauth-settings';
import type { SourceRef } from './tier';
import { parseTemplate, type Template } from './variable-template';

/** Transports that exist but Gatehouse never adapts: they land in the rejected bucket, by name. */
export type RejectedTransport = 'sse' | 'ws';

/** One entry of a document, decoded alone: a bad entry never blocks its siblings. */
export type DecodedEntry =
  | {
      readonly kind: 'valid';
      readonly name: string;
      readonly source: SourceRef;
      readonly definition: ServerDefinition;
    }
  | {
      readonly kind: 'malformed';
      readonly name: string;
      readonly source: SourceRef;
      readonly problems: readonly EntryProblem[];
    }
  | {
      readonly kind: 'rejected';
      readonly name: string;
      readonly source: SourceRef;
      readonly transport: RejectedTransport;
    };

const STDIO_KEYS = ['command', 'args', 'env', 'cwd'] as const;
const HTTP_KEYS = ['url', 'headers', 'headersHelper', 'oauth', 'principalHeader'] as const;
const KNOWN_KEYS: ReadonlySet<string> = new Set<string>([
  'type',
  'requiresTrustedWorkspace',
  ...STDIO_KEYS,
  ...HTTP_KEYS,
  ...SERVER_OPTION_NAMES,
]);
const OAUTH_KEYS: ReadonlySet<string> = new Set(['clientId', 'scopes', 'allowSharedCredential']);

/** POSIX-style environment variable names. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

function rejectedTransportOf(type: unknown): RejectedTransport | null {
  if (type === 'sse') return 'sse';
  if (type === 'ws' || type === 'websocket') return 'ws';
  return null;
}

/** A `..` path segment (either separator), as written: `${VAR}` references are judged as their text. */
export function hasParentSegment(path: string): boolean {
  return path.split(/[/\\]/).includes('..');
}

/**
 * Refuses what a person could not see, or a `..` in cwd, in a field that names what runs (judged on the text as
 * written, references and their defaults included). Returns whether the field passed.
 */
function checkRunTarget(value: unknown, path: PathSegment[], problems: ProblemList, cwd = false): boolean {
  if (typeof value !== 'string') return true;
  if (hasInvisibleCharacter(value)) {
    problems.add({ reason: 'invisible_character', path });
    return false;
  }
  if (cwd && hasParentSegment(value)) {
    problems.add({ reason: 'cwd_parent_segment', path });
    return false;
  }
  return true;
}

function hasHeaderBreak(text: string): boolean {
  return text.includes('\r') || text.includes('\n') || text.includes('\0');
}

/** Renders a path the catalog's readers gave (raw names) the way every decode problem shows keys. */
function renderOptionPath(root: unknown, path: OptionPath): PathSegment[] {
  const out: PathSegment[] = [];
  let at: unknown = root;
  for (const segment of path) {
    if (typeof segment === 'number') {
      out.push(segment);
      at = Array.isArray(at) ? at[segment] : undefined;
      continue;
    }
    const index = isPlainRecord(at) ? Object.keys(at).indexOf(segment) : -1;
    out.push(keySegment(segment, Math.max(index, 0)));
    at = isPlainRecord(at) && Object.hasOwn(at, segment) ? at[segment] : undefined;
  }
  return out;
}

/** Collects problems for one entry (bounded) while the fields are read. */
class ProblemList {
  readonly items: EntryProblem[] = [];
  add(problem: EntryProblem): void {
    if (this.items.length < MAX_PROBLEMS_PER_ENTRY) this.items.push(problem);
  }
  get empty(): boolean {
    return this.items.length === 0;
  }
}

function readTemplate(
  value: unknown,
  path: PathSegment[],
  problems: ProblemList,
  required: boolean,
): Template | null {
  if (value === undefined) {
    if (required) problems.add({ reason: 'missing_field', path });
    return null;
  }
  if (typeof value !== 'string') {
    problems.add({ reason: 'wrong_type', path });
    return null;
  }
  if (value.length === 0) {
    problems.add({ reason: 'empty_value', path });
    return null;
  }
  const parsed = parseTemplate(value);
  if (!parsed) problems.add({ reason: 'invalid_variable_reference', path });
  return parsed;
}

function headerBreakIn(template: Template): boolean {
  if (typeof template === 'string') return hasHeaderBreak(template);
  return template.some((part) => hasHeaderBreak(part.kind === 'text' ? part.text : (part.fallback ?? '')));
}

/** Headers the transport, the protocol or the gateway owns are refused (the one list, libs/catalog). */
function readKeyedTemplates(
  value: unknown,
  field: 'env' | 'headers',
  problems: ProblemList,
): KeyedTemplate[] {
  if (value === undefined) return [];
  if (!isPlainRecord(value)) {
    problems.add({ reason: 'wrong_type', path: [field] });
    return [];
  }
  const out: KeyedTemplate[] = [];
  const seen = new Set<string>();
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    // A key that is not a name of its field may be anything (a pasted paragraph): its path shows it only when
    // plain, else its position. Rendering checks the key's shape, which the clean path never needs.
    if (field === 'env' && !ENV_NAME.test(key)) {
      problems.add({ reason: 'invalid_env_name', path: [field, keySegment(key, i)] });
      continue;
    }
    if (field === 'headers' && !isHeaderName(key)) {
      problems.add({ reason: 'invalid_header_name', path: [field, keySegment(key, i)] });
      continue;
    }
    // A valid env or header name is named as itself, however much it looks like a credential: keys are never
    // hidden, so the author reads which key was refused (the value never appears).
    const refuse = (reason: EntryProblem['reason']) => problems.add({ reason, path: [field, key] });
    if (field === 'headers') {
      if (!maySetHeader(key)) {
        refuse('protocol_header');
        continue;
      }
      const lower = key.toLowerCase();
      if (seen.has(lower)) {
        refuse('duplicate_header');
        continue;
      }
      seen.add(lower);
    }
    // A value may be empty (an argument, an env or header value), unlike the fields readTemplate reads.
    const raw = value[key];
    if (typeof raw !== 'string') {
      refuse('wrong_type');
      continue;
    }
    const template = parseTemplate(raw);
    if (template === null) {
      refuse('invalid_variable_reference');
      continue;
    }
    if (field === 'headers' && headerBreakIn(template)) {
      refuse('invalid_header_value');
      continue;
    }
    out.push({ key, value: template });
  }
  return out;
}

function readStringList(value: unknown, path: PathSegment[], problems: ProblemList): string[] | null {
  if (!Array.isArray(value)) {
    problems.add({ reason: 'wrong_type', path });
    return null;
  }
  const out: string[] = [];
  for (let i = 0; i < value.length; i += 1) {
    const item: unknown = value[i];
    if (typeof item !== 'string') problems.add({ reason: 'wrong_type', path: [...path, i] });
    else if (item.length === 0) problems.add({ reason: 'empty_value', path: [...path, i] });
    else out.push(item);
  }
  return out;
}

function readOAuth(value: unknown, problems: ProblemList): OAuthSettings | null {
  if (value === undefined) return null;
  if (!isPlainRecord(value)) {
    problems.add({ reason: 'wrong_type', path: ['oauth'] });
    return null;
  }
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (OAUTH_KEYS.has(key)) continue;
    const path = ['oauth', keySegment(key, i)];
    if (isClientSecretKey(key)) problems.add({ reason: 'client_secret_in_definition', path });
    else if (claimsApprovalOrTrust(key)) problems.add({ reason: 'approval_claim', path });
    else problems.add({ reason: 'unknown_key', path });
  }
  let clientId: string | null = null;
  if (value.clientId !== undefined) {
    if (typeof value.clientId !== 'string')
      problems.add({ reason: 'wrong_type', path: ['oauth', 'clientId'] });
    else if (value.clientId.length === 0)
      problems.add({ reason: 'empty_value', path: ['oauth', 'clientId'] });
    else if (hasInvisibleCharacter(value.clientId))
      problems.add({ reason: 'invisible_character', path: ['oauth', 'clientId'] });
    else clientId = value.clientId;
  }
  let scopes: string[] = [];
  if (value.scopes !== undefined) {
    const list = readStringList(value.scopes, ['oauth', 'scopes'], problems);
    if (list) {
      list.forEach((scope, i) => {
        if (!SCOPE_TOKEN.test(scope)) problems.add({ reason: 'wrong_type', path: ['oauth', 'scopes', i] });
      });
      scopes = list;
    }
  }
  let allowSharedCredential = false;
  if (value.allowSharedCredential !== undefined) {
    if (typeof value.allowSharedCredential !== 'boolean') {
      problems.add({ reason: 'wrong_type', path: ['oauth', 'allowSharedCredential'] });
    } else {
      allowSharedCredential = value.allowSharedCredential;
    }
  }
  return { clientId, scopes, allowSharedCredential };
}

type TransportKind = 'stdio' | 'http';

function transportKindOf(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): TransportKind | null {
  const type = raw.type;
  if (type === undefined) {
    if (raw.command !== undefined) return 'stdio';
    problems.add({ reason: raw.url !== undefined ? 'url_without_type' : 'missing_transport', path: [] });
    return null;
  }
  if (typeof type !== 'string') {
    problems.add({ reason: 'wrong_type', path: ['type'] });
    return null;
  }
  if (type === 'stdio') return 'stdio';
  if (type === 'http' || type === 'streamable-http') return 'http';
  problems.add({ reason: 'unknown_transport', path: ['type'] });
  return null;
}

function decodeStdio(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): StdioTransportDefinition | null {
  for (const key of HTTP_KEYS) {
    if (raw[key] !== undefined) problems.add({ reason: 'mixed_transport_fields', path: [key] });
  }
  const command = readTemplate(raw.command, ['command'], problems, true);
  const args: Template[] = [];
  if (raw.args !== undefined) {
    if (!Array.isArray(raw.args)) problems.add({ reason: 'wrong_type', path: ['args'] });
    else if (raw.args.length > MAX_ARGUMENTS_PER_ENTRY)
      problems.add({ reason: 'too_many_arguments', path: ['args'] });
    else {
      for (let i = 0; i < raw.args.length; i += 1) {
        const item: unknown = raw.args[i];
        const arg = typeof item === 'string' ? parseTemplate(item) : null;
        if (arg !== null) args.push(arg);
        else
          problems.add({
            reason: typeof item === 'string' ? 'invalid_variable_reference' : 'wrong_type',
            path: ['args', i],
          });
      }
    }
  }
  const env = readKeyedTemplates(raw.env, 'env', problems);
  const cwd = readTemplate(raw.cwd, ['cwd'], problems, false);
  checkRunTarget(raw.command, ['command'], problems);
  checkRunTarget(raw.cwd, ['cwd'], problems, true);
  if (!command) return null;
  return { kind: 'stdio', command, args, env, cwd };
}

function decodeHttp(
  raw: Readonly<Record<string, unknown>>,
  problems: ProblemList,
): HttpTransportDefinition | null {
  for (const key of STDIO_KEYS) {
    if (raw[key] !== undefined) problems.add({ reason: 'mixed_transport_fields', path: [key] });
  }
  const url = readTemplate(raw.url, ['url'], problems, true);
  checkRunTarget(raw.url, ['url'], problems);
  const headers = readKeyedTemplates(raw.headers, 'headers', problems);
  let headersHelper: string[] | null = null;
  if (raw.headersHelper !== undefined) {
    // An exact argv, so the host can allow one command line rather than a program: a shell string is refused.
    if (Array.isArray(raw.headersHelper) && raw.headersHelper.length > MAX_ARGUMENTS_PER_ENTRY)
      problems.add({ reason: 'too_many_arguments', path: ['headersHelper'] });
    else headersHelper = readStringList(raw.headersHelper, ['headersHelper'], problems);
    if (headersHelper && headersHelper.length === 0)
      problems.add({ reason: 'empty_value', path: ['headersHelper'] });
    // The program is what runs; its arguments may carry anything, and are shown escaped.
    else if (headersHelper) checkRunTarget(headersHelper[0], ['headersHelper', 0], problems);
  }
  const oauth = readOAuth(raw.oauth, problems);
  let principalHeader: string | null = null;
  const staticNames = isPlainRecord(raw.headers) ? Object.keys(raw.headers) : [];
  const principal = readPrincipalHeader(raw.principalHeader, staticNames);
  if (!principal.ok) {
    problems.add({
      reason: 'invalid_option',
      option: 'principalHeader',
      detail: principal.reason,
      path: ['principalHeader'],
    });
  } else if (principal.value !== undefined) {
    principalHeader = principal.value;
  }
  if (!url) return null;
  return { kind: 'http', url, headers, headersHelper, oauth, principalHeader };
}

function decodeOptions(
  raw: Readonly<Record<string, unknown>>,
  source: SourceRef,
  problems: ProblemList,
): ServerOptions | null {
  const read = readServerOptions(
    {
      allowTools: raw.allowTools,
      toolAxes: raw.toolAxes,
      toolFaces: raw.toolFaces,
      contentOrigin: raw.contentOrigin,
      startupTimeoutMs: raw.startupTimeoutMs,
      elicitation: raw.elicitation,
    },
    // contentOrigin moves the deployment's trust boundary: only the managed tier speaks for the deployment.
    source.tier === 'managed' ? 'deployment' : 'request',
  );
  if (read.ok) return read.value;
  for (const refusal of read.refusals) {
    problems.add({
      reason: 'invalid_option',
      option: refusal.option,
      detail: refusal.reason,
      path: [refusal.option, ...renderOptionPath(raw[refusal.option], refusal.path)],
    });
  }
  return null;
}

/**
 * Decodes one server entry of a definition document, alone. `sse` and `ws` go to the rejected bucket (never
 * adapted, whatever else the entry says). Everything else is judged completely, and every problem found is
 * reported (bounded) with the path it sits at, never the value: an unknown key, a member claiming approval or
 * trust, a client secret, `__proto__`, nesting past the bound, mixed transport fields, a `url` without `type`,
 * a wrong type, a malformed variable reference, and every per-server option through the catalog's strict readers.
 */
export function decodeServerEntry(name: string, raw: unknown, source: SourceRef): DecodedEntry {
  if (!isPlainRecord(raw)) {
    return { kind: 'malformed', name, source, problems: [{ reason: 'not_an_object', path: [] }] };
  }
  const rejected = rejectedTransportOf(raw.type);
  if (rejected) return { kind: 'rejected', name, source, transport: rejected };

  const structural = checkEntryStructure(raw);
  if (structural.length > 0) return { kind: 'malformed', name, source, problems: structural };

  const problems = new ProblemList();
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i += 1) {
    const key = keys[i] as string;
    if (KNOWN_KEYS.has(key)) continue;
    const path = [keySegment(key, i)];
    if (isClientSecretKey(key)) problems.add({ reason: 'client_secret_in_definition', path });
    else if (claimsApprovalOrTrust(key)) problems.add({ reason: 'approval_claim', path });
    else problems.add({ reason: 'unknown_key', path });
  }

  let requiresTrustedWorkspace = false;
  if (raw.requiresTrustedWorkspace !== undefined) {
    if (typeof raw.requiresTrustedWorkspace !== 'boolean') {
      problems.add({ reason: 'wrong_type', path: ['requiresTrustedWorkspace'] });
    } else {
      requiresTrustedWorkspace = raw.requiresTrustedWorkspace;
    }
  }

  const kind = transportKindOf(raw, problems);
  const transport =
    kind === 'stdio' ? decodeStdio(raw, problems) : kind === 'http' ? decodeHttp(raw, problems) : null;
  const options = decodeOptions(raw, source, problems);

  if (!problems.empty || !transport || !options) {
    return { kind: 'malformed', name, source, problems: problems.items };
  }
  return { kind: 'valid', name, source, definition: { transport, requiresTrustedWorkspace, options } };
}
