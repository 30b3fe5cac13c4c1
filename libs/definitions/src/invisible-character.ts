/**
 * Characters a person cannot see, or that reorder what they see: C0 and C1 controls (NUL, line breaks, escape...),
 * format characters (bidirectional embeddings, overrides and isolates U+202A-U+202E and U+2066-U+2069, marks,
 * zero-width space, joiners, the byte-order mark, tags), every default-ignorable code point (soft hyphen, Hangul
 * fillers, variation selectors...), line and paragraph separators, and lone surrogates. A reviewer who approves a
 * command line must see every character that runs: text holding one of these can read differently from what runs.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;

/** Whether `text` holds a character a person cannot see (see above). Linear. */
export function hasInvisibleCharacter(text: string): boolean {
  return INVISIBLE.test(text);
}

function escapeOne(char: string): string {
  const code = char.codePointAt(0) as number;
  const hex = code.toString(16).toUpperCase();
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/**
 * DISPLAY ONLY: `text` with each invisible character written as its escape (`\u202E`, `\u0000`, `\u{E0041}`), so
 * what a person reads names every character that runs. Text without one is returned as is. Linear.
 */
export function escapeInvisible(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLE_ALL, escapeOne) : text;
}
