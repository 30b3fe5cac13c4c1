// Reads one parameter of a Bearer challenge from a WWW-Authenticate value: `resource_metadata` (RFC 9728 §5.1)
// and `scope` (RFC 6750 §3; MCP's scope selection). Only a Bearer challenge's parameters are read; anything
// unparsable yields null (no link, no scope), which discovery treats as "look at the well-known location",
// never as a guess.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

function bearerParameter(header: string | null | undefined, parameter: string): string | null {
  if (!header) return null;
  let rest = header;
  let inBearer = false;
  while (rest.length > 0) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (!name) return null;
    rest = rest.slice(name.length);
    const afterSpaces = rest.replace(/^\s+/, '');
    if (afterSpaces.startsWith('=')) {
      // auth-param (or token68 padding, which a Bearer challenge with parameters does not use)
      rest = afterSpaces.slice(1).replace(/^\s+/, '');
      let value: string;
      if (rest.startsWith('"')) {
        let i = 1;
        value = '';
        for (; i < rest.length && rest[i] !== '"'; i += 1) {
          if (rest[i] === '\\' && i + 1 < rest.length) i += 1;
          value += rest[i];
        }
        if (i >= rest.length) return null;
        rest = rest.slice(i + 1);
      } else {
        const token = TOKEN.exec(rest)?.[0];
        if (!token) return null;
        value = token;
        rest = rest.slice(token.length);
      }
      if (inBearer && name.toLowerCase() === parameter) return value;
    } else {
      // A new challenge: its scheme name.
      inBearer = name.toLowerCase() === 'bearer';
    }
  }
  return null;
}

export function resourceMetadataLink(header: string | null | undefined): string | null {
  return bearerParameter(header, 'resource_metadata');
}

/** The scope a Bearer challenge asks for (space-separated, as sent), or null when it names none. */
export function challengeScope(header: string | null | undefined): string | null {
  const scope = bearerParameter(header, 'scope');
  return scope === null || scope.trim() === '' ? null : scope;
}
