/**
 * Server names become the peer segment of tool names (`mcp__<server>__<tool>`), so they are limited to letters,
 * digits, `-` and single inner `_`: a name with `__`, or with `_` at either end, would make a tool name read two
 * ways. At most 64 characters.
 */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
export const MAX_SERVER_NAME_LENGTH = 64;

export function isValidServerName(name: string): boolean {
  return name.length > 0 && name.length <= MAX_SERVER_NAME_LENGTH && SERVER_NAME.test(name);
}
