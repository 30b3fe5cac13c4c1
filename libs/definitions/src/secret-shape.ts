import { GATEHOUSE_TOKEN_PATTERN } from '@gatehouse/contracts';

/**
 * THE shape tests of secrecy, in one place.
 *
 * 1. `isCredentialShapedName` decides what IS secret: a stretch a credential-shaped variable produced (its
 *    default included), or a value under a credential-shaped env or header key. Secrecy follows what a value is,
 *    never which field carries it. This decides fingerprint markers, identity markers and projection masking.
 * 2. `isCredentialShapedLiteral` is a GUESS about a literal's text ("this looks like a token"). It serves DISPLAY
 *    ONLY (masking a projection), never the fingerprint or the identity: two different literal tokens mask alike,
 *    and a fingerprint blind to a changed token would carry an old approval over to it.
 *
 * 3. `looksLikeGatehouseToken` spots Gatehouse's OWN API token secrets. Audit events refuse text holding one, so
 *    a name that ends up in an audit event (a server name) must not look like one.
 *
 * All run in time linear in their input (no backtracking regular expressions).
 */

/** Words that make a name credential-shaped wherever they occur, even glued to others (`GITHUBTOKEN`). */
const GLUED_WORDS = [
  'TOKEN',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'PASSPHRASE',
  'CREDENTIAL',
  'APIKEY',
  'ACCESSKEY',
  'PRIVATEKEY',
  'AUTHORIZATION',
  'COOKIE',
  'BEARER',
];

/** Words that make a name credential-shaped only as a whole word (`KEY` in `API_KEY`, not in `KEYBOARD`). */
const WHOLE_WORDS = new Set([
  'KEY',
  'KEYS',
  'PAT',
  'AUTH',
  'PASS',
  'PWD',
  'CREDS',
  'DSN',
  'SIGNATURE',
  'SIG',
  'JWT',
  'OTP',
]);

/** Connection URLs of data stores carry a password in their userinfo. */
const STORE_WORDS = new Set([
  'DATABASE',
  'DB',
  'POSTGRES',
  'POSTGRESQL',
  'PG',
  'MYSQL',
  'MONGO',
  'MONGODB',
  'REDIS',
  'AMQP',
]);

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}
function isLower(code: number): boolean {
  return code >= 97 && code <= 122;
}
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Splits `apiKey`, `API_KEY`, `x-api-key`, `APIKey` into upper-case words. Words are sliced out of the name by
 * index, never built a character at a time: once optimized, `current += char` made this quadratic in the name.
 */
function nameWords(name: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < name.length; i += 1) {
    const code = name.charCodeAt(i);
    const alnum = isUpper(code) || isLower(code) || isDigit(code);
    if (!alnum) {
      if (start >= 0) words.push(name.slice(start, i).toUpperCase());
      start = -1;
      continue;
    }
    if (start >= 0 && isUpper(code)) {
      const prev = name.charCodeAt(i - 1);
      const next = i + 1 < name.length ? name.charCodeAt(i + 1) : 0;
      // camelCase boundary (aB) or the end of an acronym (APIKey: I|K followed by lower).
      if (isLower(prev) || isDigit(prev) || (isUpper(prev) && isLower(next))) {
        words.push(name.slice(start, i).toUpperCase());
        start = i;
      }
    }
    if (start < 0) start = i;
  }
  if (start >= 0) words.push(name.slice(start).toUpperCase());
  return words;
}

/**
 * Whether a variable name, env key or header key names a credential (`GITHUB_TOKEN`, `apiKey`, `X-API-Key`,
 * `Authorization`, `DATABASE_URL`). Deliberately generous: calling a non-secret secret only hides it from
 * display and from the fingerprint's exact value, while the opposite mistake prints a credential.
 */
export function isCredentialShapedName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 0) return false;
  const squashed = words.join('');
  for (const glued of GLUED_WORDS) if (squashed.includes(glued)) return true;
  // `PWD` alone is the working directory, not a password.
  if (words.length === 1 && words[0] === 'PWD') return false;
  let store = false;
  for (const word of words) {
    if (WHOLE_WORDS.has(word)) return true;
    if (STORE_WORDS.has(word)) store = true;
  }
  const last = words[words.length - 1];
  return store && (last === 'URL' || last === 'URI' || last === 'DSN');
}

/** Prefixes of well-known credential formats (GitHub, GitLab, OpenAI/Anthropic, Stripe, Slack, AWS, Google...). */
const LITERAL_PREFIXES = [
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'github_pat_',
  'glpat-',
  'sk-',
  'sk_live_',
  'sk_test_',
  'rk_live_',
  'rk_test_',
  'xoxb-',
  'xoxp-',
  'xoxa-',
  'xoxs-',
  'xapp-',
  'AKIA',
  'ASIA',
  'AIza',
  'ya29.',
  'npm_',
  'pypi-',
  'hf_',
  'dop_v1_',
  'shpat_',
  'shpss_',
  'lin_api_',
  'SG.',
];
const MIN_PREFIXED_LENGTH = 16;
const MIN_GENERIC_LENGTH = 32;

/** Characters a credential literal is made of (base64, base64url, hex, dotted JWTs). */
export function isCredentialChar(code: number): boolean {
  return (
    isUpper(code) ||
    isLower(code) ||
    isDigit(code) ||
    code === 45 /* - */ ||
    code === 95 /* _ */ ||
    code === 46 /* . */ ||
    code === 43 /* + */ ||
    code === 61 /* = */ ||
    code === 126 /* ~ */
  );
}

function looksRandom(segment: string): boolean {
  if (segment.length < MIN_GENERIC_LENGTH) return false;
  let upper = false;
  let lower = false;
  let digit = false;
  let hex = true;
  for (let i = 0; i < segment.length; i += 1) {
    const code = segment.charCodeAt(i);
    if (isUpper(code)) upper = true;
    else if (isLower(code)) lower = true;
    else if (isDigit(code)) digit = true;
    if (!(isDigit(code) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70))) hex = false;
  }
  if (!digit) return false;
  if (upper && lower) return true;
  if (hex && (upper || lower)) return true;
  return segment.length >= 40 && (upper || lower);
}

/**
 * DISPLAY ONLY: whether one word (a maximal run of {@link isCredentialChar}) looks like a credential: a known
 * token prefix, a JWT, or a long random-looking string. Never consulted by the fingerprint or the identity.
 */
export function isCredentialShapedLiteral(word: string): boolean {
  if (word.length >= MIN_PREFIXED_LENGTH) {
    for (const prefix of LITERAL_PREFIXES) {
      if (word.startsWith(prefix) && word.length - prefix.length >= 8) return true;
    }
    if (word.startsWith('eyJ') && word.length >= 30 && word.indexOf('.') > 0) return true;
  }
  if (word.length < MIN_GENERIC_LENGTH) return false;
  // Dots separate host labels and file extensions: judge the dot-free segments, so a long host stays readable.
  let start = 0;
  for (let i = 0; i <= word.length; i += 1) {
    if (i === word.length || word.charCodeAt(i) === 46) {
      if (looksRandom(word.slice(start, i))) return true;
      start = i + 1;
    }
  }
  return false;
}

// A Gatehouse secret anywhere in a text (an API token or an invitation): the one pattern is declared in
// @gatehouse/contracts, with the API's schemas that refuse it in names.
export { GATEHOUSE_TOKEN_PATTERN };

export function looksLikeGatehouseToken(text: string): boolean {
  return GATEHOUSE_TOKEN_PATTERN.test(text);
}
