import { looksLikeGatehouseToken } from './secret-shape';

/**
 * Server names become the peer segment of tool names (`mcp__<server>__<tool>`), so they are limited to letters,
 * digits, `-` and single inner `_`: a name with `__`, or with `_` at either end, would make a tool name read two
 * ways. At most 64 characters.
 *
 * A name shaped like a Gatehouse API token (`ghu_` + 16 letters or digits) is refused too: server names are
 * written into approval requests and their audit events, and the audit guard refuses token-shaped text, so such a
 * name would make every event that reaches the entry fail (a trust change of its workspace, for one).
 */
const SERVER_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
export const MAX_SERVER_NAME_LENGTH = 64;

export function isValidServerName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= MAX_SERVER_NAME_LENGTH &&
    SERVER_NAME.test(name) &&
    !looksLikeGatehouseToken(name)
  );
}
