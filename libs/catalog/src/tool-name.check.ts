import { FORBIDDEN_MEMBER_NAME } from './plain-data';
import { MAX_OPTION_NAME_LENGTH, type OptionRefusalReason } from './option-refusal';

/**
 * The shape every tool name in an option must have (a list member of `allowTools`, a key of `toolAxes` or
 * `toolFaces`): a non-empty string of bounded length that is not `__proto__`. Returns the refusal reason, or
 * null when the name is acceptable. The names are the server's REMOTE (un-namespaced) tool names.
 */
export function toolNameProblem(name: string): OptionRefusalReason | null {
  if (name.length === 0) return 'empty_name';
  if (name === FORBIDDEN_MEMBER_NAME) return 'forbidden_name';
  if (name.length > MAX_OPTION_NAME_LENGTH) return 'name_too_long';
  return null;
}
