import type { ApiProblem, FieldProblem, ShownProblemCode } from './api-problem';

// What a person reads when something did not work: never a validator's raw text ("Too small: expected array to
// have >=1 items"), never a field's key (`stdioCommands`), never a bare status ("Unexpected answer – 414"), and
// always what to do next. Pure: the API's problem (or the dashboard's own) goes in, words come out. The stable
// `code` stays on the problem and on the page, for docs and logs.

/** The words of one field problem: which field, by its label, and the message a person can act on. */
export interface FieldInWords {
  readonly path: string;
  readonly label: string;
  readonly message: string;
}

export interface ProblemInWords {
  readonly title: string;
  readonly detail: string | null;
  /** What to do now: always present. */
  readonly nextStep: string;
  readonly fields: readonly FieldInWords[];
}

/**
 * The longest path segment the API's router takes (Fastify's maxParamLength): a longer variable or server name
 * in a URL is refused with 414 before any validation runs, so forms hold names in a path to this.
 */
export const MAX_PATH_SEGMENT_CHARS = 100;

/** Labels of the fields the dashboard's forms send, by the command's field name. */
const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  displayName: 'Name',
  repositoryIdentity: 'Repository',
  email: 'Email address',
  password: 'Password',
  role: 'Role',
  kind: 'Kind',
  scopes: 'Scopes',
  workspaceIds: 'Workspaces',
  workspaceId: 'Workspace',
  pool: 'Worker pool',
  expiresAt: 'Expiry',
  expiresInDays: 'Approval holds',
  stdioCommands: 'Stdio commands',
  headerHelpers: 'Header helpers',
  privateCidrs: 'Private ranges',
  traceContextOrigins: 'Trace context origins',
  fourEyes: 'Four-eyes approvals',
  document: 'Document',
  content: 'File',
  value: 'Value',
  reason: 'Reason',
  scope: 'Applies to',
  serverName: 'Server',
  tier: 'Tier',
  trusted: 'Trust',
  expectedVersion: 'Version',
  expectedGeneration: 'Generation',
  tenant: 'Tenant',
};

/** `stdioCommands` → "Stdio commands"; a key the dashboard does not know reads as words, not as code. */
function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? key : `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

/**
 * The label of a field path as the API names it (`stdioCommands.2`, `document.mcpServers.docs.url`): the form's
 * label for the first segment, then "item N" for list positions (1-based) and the remaining names as written —
 * below a document they are the person's own keys (server names, env keys), which they recognise.
 */
export function fieldLabel(path: string, labels: Readonly<Record<string, string>> = {}): string {
  if (path === '') return 'The form';
  const [head = '', ...rest] = path.split('.');
  const first = labels[head] ?? FIELD_LABELS[head] ?? humanizeKey(head);
  const tail = rest.map((segment) => (/^\d+$/.test(segment) ? `item ${Number(segment) + 1}` : segment));
  return [first, ...tail].join(' › ');
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

const SIZE_NOUNS: Readonly<Record<string, [string, string]>> = {
  string: ['character', 'characters'],
  array: ['item', 'items'],
  set: ['item', 'items'],
  map: ['entry', 'entries'],
  object: ['entry', 'entries'],
  file: ['byte', 'bytes'],
};

/** Zod 4's default messages (the API's validator), each as a sentence that says what to enter instead. */
const VALIDATOR_MESSAGES: readonly {
  readonly pattern: RegExp;
  readonly words: (m: RegExpMatchArray) => string;
}[] = [
  {
    pattern: /^Too small: expected (\w+) to have >=?(\d+) (?:\w+)$/,
    words: (m) => {
      const count = Number(m[2]);
      const [one, many] = SIZE_NOUNS[m[1] ?? ''] ?? ['item', 'items'];
      if (count <= 1) return m[1] === 'string' ? 'Enter a value.' : `Choose or add at least one ${one}.`;
      return `Use at least ${plural(count, one, many)}.`;
    },
  },
  {
    pattern: /^Too big: expected (\w+) to have <=?(\d+) (?:\w+)$/,
    words: (m) => {
      const [one, many] = SIZE_NOUNS[m[1] ?? ''] ?? ['item', 'items'];
      return `Shorten it to at most ${plural(Number(m[2]), one, many)}.`;
    },
  },
  {
    pattern: /^Too small: expected number to be >=?(-?[\d.]+)$/,
    words: (m) => `Enter a number of at least ${m[1]}.`,
  },
  {
    pattern: /^Too big: expected number to be <=?(-?[\d.]+)$/,
    words: (m) => `Enter a number of at most ${m[1]}.`,
  },
  {
    pattern: /^Invalid input: expected (\w+), received (?:undefined|null)$/,
    words: () => 'Fill this in: it is required.',
  },
  {
    pattern: /^Invalid input: expected (\w+), received (\w+)$/,
    words: (m) =>
      m[1] === 'array'
        ? 'Enter a list here.'
        : m[1] === 'object'
          ? 'Enter an object ({ … }) here.'
          : m[1] === 'number' || m[1] === 'int'
            ? 'Enter a number.'
            : m[1] === 'boolean'
              ? 'Choose yes or no.'
              : 'Enter text here.',
  },
  { pattern: /^Invalid email address$/, words: () => 'Enter an email address such as name@example.com.' },
  { pattern: /^Invalid UUID$/, words: () => 'Pick it from the list again: the id is not valid.' },
  { pattern: /^Invalid URL$/, words: () => 'Enter a full URL such as https://example.com/mcp.' },
  {
    pattern: /^Invalid ISO datetime$/,
    words: () => 'Enter a date and time, such as 2027-01-31 12:00.',
  },
  {
    pattern: /^Invalid option: expected one of (.+)$/,
    words: (m) => `Choose one of: ${(m[1] ?? '').replaceAll('"', '').split('|').join(', ')}.`,
  },
  {
    pattern: /^Invalid string: must match pattern .*$/,
    words: () => 'Use only the characters this field allows.',
  },
  {
    pattern: /^Unrecognized keys?: (.+)$/,
    words: (m) => `Remove ${m[1]}: it is not a field here.`,
  },
  { pattern: /^Invalid input$/, words: () => 'Check this value: it is not in the expected form.' },
];

/**
 * A validator message in words. Zod's defaults are rewritten; a message someone wrote for people (the API's own
 * "letters, digits and underscore; …", the dashboard's "Line 3: …") is kept, starting with a capital and ending
 * with a full stop.
 */
export function messageInWords(message: string): string {
  const text = message.trim();
  for (const known of VALIDATOR_MESSAGES) {
    const match = text.match(known.pattern);
    if (match) return known.words(match);
  }
  if (text === '') return 'Check this value.';
  const sentence = `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
  return /[.!?…]$/.test(sentence) ? sentence : `${sentence}.`;
}

/** A field problem's message for the field itself (shown under the control, which carries the label). */
export function fieldMessageInWords(problem: FieldProblem): string {
  return messageInWords(problem.message);
}

/** What to do after each code the dashboard meets; the status decides for any other. Keyed by the one list. */
const NEXT_STEPS: Readonly<Partial<Record<ShownProblemCode, string>>> = {
  validation_failed: 'Correct the fields named here, then send the form again.',
  duplicate_key: 'Write each key once, then save again.',
  conflict: 'Someone changed it meanwhile or the name is taken: reload the page, or choose another name.',
  not_found: 'It may have been removed: go back to the list and pick it again.',
  forbidden_scope: 'Ask an owner or admin of this tenant for the role this needs.',
  forbidden: 'Ask an owner or admin of this tenant for the role this needs.',
  forbidden_caller: 'Sign in as a person to do this: tokens of this kind may not.',
  // Sign-in with a wrong email or password is `unauthenticated` too; its detail says which.
  unauthenticated: 'Sign in again: check the email address and password.',
  tenant_required: 'Pick the tenant to sign in to, then sign in again.',
  tenant_not_member: 'Pick one of your tenants, then sign in again.',
  rate_limited: 'Wait a minute, then try again.',
  uri_too_long: `Shorten what you typed: names used in addresses are at most ${MAX_PATH_SEGMENT_CHARS} characters.`,
  payload_too_large: 'Make it smaller (split a large document), then try again.',
  request_header_fields_too_large: 'Sign out and in again; if it persists, tell whoever runs Gatehouse.',
  api_unreachable: 'Try again in a moment. If it keeps failing, tell whoever runs Gatehouse.',
  api_bad_response:
    'Try again. If it keeps happening, tell whoever runs Gatehouse, with the error code below.',
  dashboard_misconfigured: 'Tell whoever runs Gatehouse: the dashboard needs a configuration fix.',
  changed_since_review: 'Review the new request, which shows what changed.',
  request_not_open: 'Open the queue and review the request that is open now.',
  four_eyes_author: 'Ask another approver to decide this request.',
  outside_operator_ceiling: 'Remove the lines named here, or ask the operator to widen the pool’s ceiling.',
  internal: 'Try again in a moment. If it keeps failing, tell whoever runs Gatehouse, with the error code.',
};

/** Titles the API or the dashboard phrase for machines, in words. */
const TITLES: Readonly<Partial<Record<ShownProblemCode, string>>> = {
  validation_failed: 'Some fields need attention',
  api_bad_response: 'The API’s answer could not be read',
  uri_too_long: 'What you typed is too long for the API',
  payload_too_large: 'That is too large to send',
  rate_limited: 'Too many attempts',
  internal: 'Something went wrong in Gatehouse',
};

function nextStepOf(problem: ApiProblem): string {
  const known = NEXT_STEPS[problem.code];
  if (known !== undefined) return known;
  if (problem.status !== null && problem.status >= 500) {
    return 'Try again in a moment. If it keeps failing, tell whoever runs Gatehouse, with the error code below.';
  }
  return 'Check what you entered, then try again.';
}

function detailOf(problem: ApiProblem, labels: Readonly<Record<string, string>>): string | null {
  switch (problem.code) {
    case 'validation_failed':
      // The API's own sentence ("The input does not match the command.") says nothing the fields do not.
      return problem.errors.length > 0 ? null : problem.detail;
    case 'api_bad_response':
      if (problem.status === 414)
        return 'The request was too long: something you typed is longer than the API takes.';
      return problem.status !== null
        ? `The API answered (HTTP ${problem.status}), but not in a form the dashboard understands.`
        : 'The API answered, but not in a form the dashboard understands.';
    default:
      return problem.detail === null ? null : detailInWords(problem.detail, labels);
  }
}

/**
 * A detail sentence with the field keys it quotes (`stdioCommands.0 is outside …`) replaced by their labels:
 * only keys the dashboard knows (or the form names), so ordinary words stay as they are.
 */
export function detailInWords(detail: string, labels: Readonly<Record<string, string>> = {}): string {
  const known = new Set([...Object.keys(FIELD_LABELS), ...Object.keys(labels)]);
  return detail.replace(/\b([a-z][A-Za-z]*)((?:\.\d+)*)\b/g, (match: string, key: string, rest: string) =>
    known.has(key) && (rest !== '' || /[A-Z]/.test(key)) ? fieldLabel(`${key}${rest}`, labels) : match,
  );
}

/** The whole problem in words, for a callout: title, detail, what to do, and each field by its label. */
export function problemInWords(
  problem: ApiProblem,
  labels: Readonly<Record<string, string>> = {},
): ProblemInWords {
  const tooLong = problem.code === 'api_bad_response' && problem.status === 414;
  return {
    title: tooLong ? (TITLES['uri_too_long'] ?? problem.title) : (TITLES[problem.code] ?? problem.title),
    detail: detailOf(problem, labels),
    nextStep: tooLong ? (NEXT_STEPS['uri_too_long'] ?? nextStepOf(problem)) : nextStepOf(problem),
    fields: problem.errors.map((error) => ({
      path: error.path,
      label: fieldLabel(error.path, labels),
      message: messageInWords(error.message),
    })),
  };
}
