/**
 * Why a per-server option (the options of a server declaration that decide how its tools are mounted) could not
 * be read. One union for every reader in this lib, so a caller switches over one set of words. A refusal names
 * WHERE (a path from the option's root: a list index as a number, a member or tool name as a string) and WHAT
 * KIND of problem; it never carries the value that was declared, because a declaration may hold anything.
 */
export type OptionRefusalReason =
  /** The value is not the kind of data the option holds (a string where a list belongs, `null`, a number...). */
  | 'wrong_type'
  /** A tool name (a list member or a record key) is the empty string. */
  | 'empty_name'
  /** A member named `__proto__`: plain data never needs it and prototype-sensitive code mishandles it. */
  | 'forbidden_name'
  /** A name longer than {@link MAX_OPTION_NAME_LENGTH}. */
  | 'name_too_long'
  /** A tool name with a character outside MCP's tool-name format (ASCII letters, digits, `_`, `-`, `.`). */
  | 'invalid_name_character'
  /** The same tool named twice in a list. */
  | 'duplicate_name'
  /** A member the option's shape does not have. A bad key is never dropped. */
  | 'unknown_member'
  /** A word outside the option's vocabulary. A bad word never defaults. */
  | 'not_in_vocabulary'
  /** A number outside the option's range. Never clamped. */
  | 'out_of_range'
  /** A fraction, NaN or infinity where whole milliseconds belong. */
  | 'not_whole_number'
  /** A deployment-plane option (`contentOrigin`) declared by a source that is not the deployment's own. */
  | 'not_deployment_plane'
  /** A header name that is not an HTTP token. */
  | 'invalid_header_name'
  /** A header the transport, the protocol or the authenticator owns. */
  | 'protocol_header'
  /** The principal header collides (case-insensitively) with a static header of the same server. */
  | 'header_collision'
  /** A list that must name something is empty. */
  | 'empty_list'
  /** A string longer than the option allows. */
  | 'too_long';

/** A path from the option's root. */
export type OptionPath = readonly (string | number)[];

export interface OptionRefusal {
  readonly ok: false;
  readonly reason: OptionRefusalReason;
  readonly path: OptionPath;
}

export type OptionRead<T> = { readonly ok: true; readonly value: T } | OptionRefusal;

/** Longest tool name (or other declared name) an option may carry. */
export const MAX_OPTION_NAME_LENGTH = 128;

export function refuse(reason: OptionRefusalReason, path: OptionPath = []): OptionRefusal {
  return { ok: false, reason, path };
}
