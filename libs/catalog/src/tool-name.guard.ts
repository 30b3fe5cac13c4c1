import { FORBIDDEN_MEMBER_NAME } from './plain-data';
import { MAX_OPTION_NAME_LENGTH, type OptionRefusalReason } from './option-refusal';

/**
 * The characters a server's REMOTE tool name may hold when an option names it (SEP-986, the tool-name format of
 * MCP 2025-11-25): ASCII letters, digits, `_`, `-` and `.`. A tool a server lists under another name still
 * mounts (its minted name is sanitized, see mcp-name-minter.ts), but no option can address it, so it keeps the
 * fail-closed defaults: an allowlist cannot admit it and `toolAxes` cannot vouch it down.
 */
export const REMOTE_TOOL_NAME_PATTERN = /^[A-Za-z0-9._-]+$/;

/**
 * The shape every tool name in an option must have (a list member of `allowTools`, a key of `toolAxes` or
 * `toolFaces`): 1 to {@link MAX_OPTION_NAME_LENGTH} characters of {@link REMOTE_TOOL_NAME_PATTERN}, not
 * `__proto__`. Returns the refusal reason, or null when the name is acceptable. The names are the server's
 * REMOTE (un-namespaced) tool names, compared exactly (case-sensitive) with what the server lists.
 */
export function toolNameProblem(name: string): OptionRefusalReason | null {
  if (name.length === 0) return 'empty_name';
  if (name === FORBIDDEN_MEMBER_NAME) return 'forbidden_name';
  if (name.length > MAX_OPTION_NAME_LENGTH) return 'name_too_long';
  if (!REMOTE_TOOL_NAME_PATTERN.test(name)) return 'invalid_name_character';
  return null;
}
