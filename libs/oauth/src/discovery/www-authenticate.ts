// Reads the `resource_metadata` parameter of a Bearer challenge (RFC 9728 §5.1) from a WWW-Authenticate
// value. Only that parameter of a Bearer challenge is read; anything unparsable yields null (no link), which
// discovery treats as "look at the well-known location", never as a guess.

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+/;

export function resourceMetadataLink(header: string | null | undefined): string | null {
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
      if (inBearer && name.toLowerCase() === 'resource_metadata') return value;
    } else {
      // A new challenge: its scheme name.
      inBearer = name.toLowerCase() === 'bearer';
    }
  }
  return null;
}
