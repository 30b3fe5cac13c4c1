import { isCredentialChar, isCredentialShapedLiteral, isCredentialShapedName } from './secret-shape';

/**
 * DISPLAY ONLY. Masks what a literal's shape gives away in text that is about to be shown: credential-looking
 * words, values after credential-named keys (`--api-key=…`, `token=…`, `Authorization: …`), the word after
 * `Bearer`/`Basic`, URL userinfo, and credential-named query or fragment parameters. Text reaching these
 * functions has already had its secret stretches replaced (see redacted-projection.ts): this is the second line,
 * for literals nobody declared secret. Every function is one left-to-right pass: linear in its input.
 */
export const REDACTED = '[REDACTED]';

const AUTH_SCHEMES = new Set(['bearer', 'basic', 'token', 'bot']);

function isNameChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 45 ||
    code === 95
  );
}

function isSpace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

/** Where a value after `=` ends: whitespace, a parameter or list separator, a quote. */
function endOfAssignedValue(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (
      isSpace(code) ||
      code === 38 /* & */ ||
      code === 44 /* , */ ||
      code === 59 /* ; */ ||
      code === 34 ||
      code === 39
    )
      break;
    i += 1;
  }
  return i;
}

/** Where a value after `Key:` ends: a header-style value runs to the end of its line or list item. */
function endOfColonValue(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 10 || code === 13 || code === 44 || code === 59 || code === 34 || code === 39) break;
    i += 1;
  }
  return i;
}

const REFERENCE = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/;

/**
 * What replaces a value in a masked slot. A slot holding only a variable reference (`${API_TOKEN}`, which is how a
 * secret stretch already reads) keeps it: it says where the value comes from and shows none of it.
 */
function maskSlot(slot: string): string {
  if (slot.length === 0) return '';
  const reference = REFERENCE.exec(slot);
  return reference && !isCredentialShapedLiteral(reference[1] as string) ? slot : REDACTED;
}

function allNameChars(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i += 1) if (!isNameChar(text.charCodeAt(i))) return false;
  return true;
}

/** Masks credential-shaped literals in free text (an argument, a cwd, a path). Unchanged text is returned as is. */
export function maskText(text: string): string {
  const out = maskWords(text);
  // Equal text: hand back the original rather than a freshly built copy, so results retain less memory.
  return out === text ? text : out;
}

function maskWords(text: string): string {
  let out = '';
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isCredentialChar(text.charCodeAt(i))) {
      let k = i + 1;
      while (k < n && !isCredentialChar(text.charCodeAt(k))) k += 1;
      out += text.slice(i, k);
      i = k;
      continue;
    }
    let j = i;
    while (j < n && isCredentialChar(text.charCodeAt(j))) j += 1;
    const word = text.slice(i, j);

    const eq = word.indexOf('=');
    if (eq > 0) {
      const key = word.slice(0, eq);
      if (allNameChars(key.replace(/^-+/, '')) && isCredentialShapedName(key)) {
        const end = endOfAssignedValue(text, i + eq + 1);
        out += `${key}=${maskSlot(text.slice(i + eq + 1, end))}`;
        i = end;
        continue;
      }
    }
    if (j < n && text.charCodeAt(j) === 58 /* : */ && allNameChars(word) && isCredentialShapedName(word)) {
      let start = j + 1;
      while (start < n && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start += 1;
      const end = endOfColonValue(text, start);
      out += `${word}:${text.slice(j + 1, start)}${maskSlot(text.slice(start, end))}`;
      i = end;
      continue;
    }
    if (j < n && text.charCodeAt(j) === 32 && AUTH_SCHEMES.has(word.toLowerCase())) {
      let start = j;
      while (start < n && text.charCodeAt(start) === 32) start += 1;
      let end = start;
      while (end < n && !isSpace(text.charCodeAt(end))) end += 1;
      out += `${word}${text.slice(j, start)}${maskSlot(text.slice(start, end))}`;
      i = end;
      continue;
    }
    out += isCredentialShapedLiteral(word) ? REDACTED : word;
    i = j;
  }
  return out;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** `a=1&token=…`: each parameter with a credential-shaped name loses its value; the others are masked as text. */
function maskParams(params: string): string {
  return params
    .split('&')
    .map((param) => {
      const eq = param.indexOf('=');
      if (eq > 0 && isCredentialShapedName(safeDecode(param.slice(0, eq)))) {
        return `${param.slice(0, eq)}=${maskSlot(param.slice(eq + 1))}`;
      }
      return maskText(param);
    })
    .join('&');
}

function firstOf(text: string, from: number, chars: string): number {
  for (let i = from; i < text.length; i += 1) if (chars.includes(text[i] as string)) return i;
  return text.length;
}

/**
 * Masks a URL for display: the whole userinfo (a username is often the token itself), credential-named query and
 * fragment parameters, and credential-shaped literals anywhere. Scheme, host, port and path stay readable: they
 * are how an operator tells servers apart. Text without `://` is masked as plain text.
 */
export function maskUrl(text: string): string {
  const schemeEnd = text.indexOf('://');
  if (schemeEnd < 0) return maskText(text);
  const authorityStart = schemeEnd + 3;
  const authorityEnd = firstOf(text, authorityStart, '/?#');
  const authority = text.slice(authorityStart, authorityEnd);
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? `${REDACTED}@${maskText(authority.slice(at + 1))}` : maskText(authority);
  const hash = text.indexOf('#', authorityEnd);
  const beforeHash = hash < 0 ? text.length : hash;
  const question = text.indexOf('?', authorityEnd);
  const pathEnd = question >= 0 && question < beforeHash ? question : beforeHash;
  let out = `${maskText(text.slice(0, schemeEnd))}://${host}${maskText(text.slice(authorityEnd, pathEnd))}`;
  if (pathEnd < beforeHash) out += `?${maskParams(text.slice(pathEnd + 1, beforeHash))}`;
  if (hash >= 0) out += `#${maskParams(text.slice(hash + 1))}`;
  return out;
}

/** A flag that names a credential and takes its value as the NEXT argument (`--api-key`, `--token`). */
function isCredentialFlag(arg: string): boolean {
  if (arg.length < 2 || arg.charCodeAt(0) !== 45 || arg.includes('=')) return false;
  const name = arg.replace(/^-+/, '');
  return allNameChars(name) && isCredentialShapedName(name);
}

/** Masks one argument: URLs as URLs, the rest as text. */
export function maskArgument(arg: string): string {
  return arg.includes('://') ? maskUrl(arg) : maskText(arg);
}

/** Masks an argv: each argument, plus the argument after a credential-named flag (`--token <value>`). */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let hideNext = false;
  for (const arg of args) {
    if (hideNext && arg.charCodeAt(0) !== 45) out.push(maskSlot(arg));
    else out.push(maskArgument(arg));
    hideNext = isCredentialFlag(arg);
  }
  return out;
}
