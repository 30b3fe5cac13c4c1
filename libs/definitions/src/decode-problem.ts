import type { OptionRefusalReason, ServerOptionName } from '@gatehouse/catalog';
import { isCredentialShapedLiteral, looksLikeGatehouseToken } from './secret-shape';

/**
 * Why one server entry could not be decoded. Each names a path inside the entry; none carries a value.
 */
export type EntryDecodeReason =
  /** The entry (or a member that must be an object) is not a plain object. */
  | 'not_an_object'
  /** A member has the wrong kind of value. */
  | 'wrong_type'
  /** A member the format does not have. */
  | 'unknown_key'
  /** A member claiming approval or trust: a document cannot carry approval. */
  | 'approval_claim'
  /** A member named `__proto__`. */
  | 'forbidden_key'
  /** Nesting deeper than {@link MAX_ENTRY_DEPTH}. */
  | 'too_deep'
  /** A required member is absent (`command` for stdio, `url` for http). */
  | 'missing_field'
  /** A member that must name something is empty. */
  | 'empty_value'
  /** Members of the other transport (`url` on a stdio server, `command` on an http one...). */
  | 'mixed_transport_fields'
  /** A `url` without `type`: the transport must be said, never guessed from the URL. */
  | 'url_without_type'
  /** Neither `type`, nor `command`, nor `url`. */
  | 'missing_transport'
  /** A `type` that is none of stdio, http, streamable-http (sse and ws are rejected, not malformed). */
  | 'unknown_transport'
  /** A client secret: it never lives in a definition. */
  | 'client_secret_in_definition'
  /** A malformed `${...}` reference. */
  | 'invalid_variable_reference'
  /** An env key that is not a variable name. */
  | 'invalid_env_name'
  /** A header key that is not an HTTP token. */
  | 'invalid_header_name'
  /** Two headers whose names differ only in case. */
  | 'duplicate_header'
  /** A header value with CR, LF or NUL. */
  | 'invalid_header_value'
  /** A per-server option its strict reader refused (`option` and `detail` say which and why). */
  | 'invalid_option'
  /** More than {@link MAX_ARGUMENTS_PER_ENTRY} items in `args` or `headersHelper`. */
  | 'too_many_arguments'
  /**
   * A character a person cannot see (a control, a bidirectional override, a zero-width character...) where none
   * can be meant: the command, the cwd, the URL, the header helper's program, the OAuth client id.
   */
  | 'invisible_character'
  /** A `..` segment in `cwd`: where a server runs is said directly, never climbed to. */
  | 'cwd_parent_segment'
  /** A static header the transport, the MCP protocol or the gateway owns (`Host`, `Mcp-Session-Id`, ...). */
  | 'protocol_header';

export type PathSegment = string | number;

export interface EntryProblem {
  readonly reason: EntryDecodeReason;
  /** From the entry's root. A user-written key is shown only when it is a short plain name; else as `#<index>`. */
  readonly path: readonly PathSegment[];
  /** For `invalid_option`: which option (the catalog's per-server options, or the http `principalHeader`). */
  readonly option?: ServerOptionName | 'principalHeader';
  readonly detail?: OptionRefusalReason;
}

/** Containers may nest at most this many levels below the entry (the format itself needs four). */
export const MAX_ENTRY_DEPTH = 8;

/** `args` and `headersHelper` hold at most this many items each (a command line, not a data file). */
export const MAX_ARGUMENTS_PER_ENTRY = 256;

/** An entry reports at most this many problems, so a huge broken entry costs bounded output. */
export const MAX_PROBLEMS_PER_ENTRY = 20;

const PLAIN_KEY = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * How a user-written key appears in a problem path: itself when it is a short plain name that does not look like
 * a credential, else its position among its siblings. A pasted token used as a key never reaches a message.
 */
export function keySegment(key: string, index: number): string {
  const shown = PLAIN_KEY.test(key) && !isCredentialShapedLiteral(key) && !looksLikeGatehouseToken(key);
  return shown ? key : `#${index}`;
}
