import type { McpOffer } from './command';

/** The MCP annotations of a read: changes nothing, so it is never destructive and always idempotent. */
export const MCP_READ: McpOffer = Object.freeze({ readOnly: true, destructive: false, idempotent: true });

/** The MCP annotations of a write, by what it does to what exists. */
export function mcpWrite(hints: { readonly destructive: boolean; readonly idempotent: boolean }): McpOffer {
  return Object.freeze({ readOnly: false, ...hints });
}
