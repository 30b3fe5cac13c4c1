import { normalizeName, type KeyClass } from './sensitive-names.js';

/** Longer strings are cut here before they are scanned or written: a log line is bounded. */
export const MAX_LOGGED_STRING = 16 * 1024;

export interface TextScrubberOptions {
  readonly censor: string;
  readonly classify: (key: string) => KeyClass;
  /** Exact secret values (and fragments) to replace first, longest first. */
  readonly needles?: readonly string[];
}

// Every pattern is anchored so that each match attempt starts at a word (or a literal) and gives up after one
// pass over it: the scrub is linear in the text, whatever the text.
const ABSOLUTE_URL = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'<>`]*/g;
const BEARER = /(?<![A-Za-z0-9])(bearer|dpop)(\s+)[^\s"',;]+/gi;
const BASIC = /(?<![A-Za-z0-9])(basic)(\s+)(?=[A-Za-z0-9+/]*[0-9+/=])[A-Za-z0-9+/]{6,}={0,2}/gi;
const KEY_THEN_SEPARATOR = /(?<![A-Za-z0-9_-])([A-Za-z0-9_-]+)["']?[ \t]*[=:][ \t]*["']?/g;
const VALUE_STOP = /[\s"'&,;<>()[\]{}]/;
// A header whose value has parts (`Authorization: <scheme> <credential>`, `Cookie: a=1; b=2`): the value runs to
// the end of the line or the closing quote.
const HEADER_VALUE_STOP = /[\r\n"'`]/;
const MULTI_PART_HEADERS = ['authorization', 'cookie', 'cookies'];
// A relative reference with a query or fragment inside free text (`GET /cb?code=x failed`). It starts only after
// a space, a quote, `(` or `=`, and its path cannot contain one, so match attempts never overlap: linear.
const RELATIVE_WITH_QUERY = /(?<![^\s"'(=])\/[^\s?#"'<>`=(]*[?#][^\s"'<>`]*/g;
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
// Our own API tokens (gh<kind>_...), and the shapes secret scanners know from other services.
const TOKEN_SHAPES = /(?<![A-Za-z0-9])(?:gh[a-z]_|github_pat_|glpat-|sk-|xox[a-z]-|AKIA)[A-Za-z0-9_-]{16,}/g;
const TEXT_ONLY_SUFFIXES = ['key', 'auth', 'pwd', 'sig'];

/** `https://u:p@host/path?q#f` -> `https://[censor]@host/path?[censor]`: where it goes, not what it carries. */
function scrubAbsoluteUrl(url: string, censor: string): string {
  const schemeEnd = url.indexOf('://') + 3;
  let authorityEnd = url.length;
  for (let i = schemeEnd; i < url.length; i += 1) {
    const c = url.charCodeAt(i);
    if (c === 0x2f || c === 0x3f || c === 0x23) {
      authorityEnd = i;
      break;
    }
  }
  let authority = url.slice(schemeEnd, authorityEnd);
  const at = authority.lastIndexOf('@');
  if (at >= 0) authority = `${censor}@${authority.slice(at + 1)}`;
  return `${url.slice(0, schemeEnd)}${authority}${scrubPathQuery(url.slice(authorityEnd), censor)}`;
}

/** `/path?q#f` -> `/path?[censor]`. */
function scrubPathQuery(rest: string, censor: string): string {
  const query = rest.indexOf('?');
  const fragment = rest.indexOf('#');
  if (query < 0 && fragment < 0) return rest;
  const cut = query < 0 ? fragment : fragment < 0 ? query : Math.min(query, fragment);
  return `${rest.slice(0, cut)}${rest.charCodeAt(cut) === 0x3f ? '?' : '#'}${censor}`;
}

/**
 * `name=value`, `name: value`, `"name": "value"`: the value after a sensitive name is replaced, up to the next
 * space, quote or delimiter. Only the name and separator are matched, so the text after a harmless name is still
 * scanned (`failed: token=x`).
 */
function scrubKeyValues(text: string, censor: string, sensitive: (key: string) => boolean): string {
  let out = '';
  let copied = 0;
  KEY_THEN_SEPARATOR.lastIndex = 0;
  for (let match = KEY_THEN_SEPARATOR.exec(text); match !== null; match = KEY_THEN_SEPARATOR.exec(text)) {
    const valueStart = match.index + match[0].length;
    const name = match[1] ?? '';
    if (!sensitive(name)) continue;
    const normalized = normalizeName(name);
    const stop = MULTI_PART_HEADERS.some((header) => normalized.endsWith(header))
      ? HEADER_VALUE_STOP
      : VALUE_STOP;
    let valueEnd = valueStart;
    while (valueEnd < text.length && !stop.test(text.charAt(valueEnd))) valueEnd += 1;
    if (valueEnd === valueStart || text.startsWith(censor, valueStart)) continue;
    out += `${text.slice(copied, valueStart)}${censor}`;
    copied = valueEnd;
    KEY_THEN_SEPARATOR.lastIndex = valueEnd;
  }
  return copied === 0 ? text : `${out}${text.slice(copied)}`;
}

/**
 * Scrubs credentials out of free text (error messages, stacks, log messages, any string value): exact secret
 * values, URL userinfo, query strings and fragments, `Bearer`/`Basic` credentials, `name=value` and
 * `"name": "value"` pairs whose name is sensitive, JWTs and known token shapes.
 */
export function createTextScrubber(options: TextScrubberOptions): (text: string) => string {
  const { censor, classify } = options;
  const needles = [...(options.needles ?? [])].sort((a, b) => b.length - a.length);
  const sensitiveInText = (key: string) => {
    if (classify(key) !== 'plain') return true;
    const name = normalizeName(key);
    return TEXT_ONLY_SUFFIXES.some((suffix) => name.endsWith(suffix));
  };
  return (input) => {
    let text = input.length > MAX_LOGGED_STRING ? `${input.slice(0, MAX_LOGGED_STRING)}…[truncated]` : input;
    if (text.length < 6) return text;
    for (const needle of needles) if (text.includes(needle)) text = text.split(needle).join(censor);
    if (text.includes('://')) text = text.replace(ABSOLUTE_URL, (url) => scrubAbsoluteUrl(url, censor));
    else if (text.charCodeAt(0) === 0x2f && !text.includes(' ')) text = scrubPathQuery(text, censor);
    if (text.includes('/') && (text.includes('?') || text.includes('#')))
      text = text.replace(RELATIVE_WITH_QUERY, (reference) => scrubPathQuery(reference, censor));
    if (text.includes('eyJ')) text = text.replace(JWT, censor);
    text = text.replace(TOKEN_SHAPES, censor);
    text = text.replace(BEARER, `$1$2${censor}`).replace(BASIC, `$1$2${censor}`);
    if (text.includes('=') || text.includes(':')) text = scrubKeyValues(text, censor, sensitiveInText);
    return text;
  };
}
