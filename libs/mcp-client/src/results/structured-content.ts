import type { CallToolResult } from '@modelcontextprotocol/client';

// A tool result as the hosts of this lib relay it: 2025-era shaped. The 2026-07-28 revision lets
// `structuredContent` be any JSON value; a 2025-era client (every client the gateway serves today) reads only an
// object there. A result whose structured content is not an object keeps its content blocks (where the protocol
// asks servers to carry the same JSON as text) and loses the structured copy.

/** A tool call's result, with structured content only as an object. */
export type UpstreamToolResult = CallToolResult & { structuredContent?: Record<string, unknown> };

export function legacyShapedResult(result: CallToolResult): UpstreamToolResult {
  const { structuredContent, ...rest } = result;
  if (structuredContent === undefined || isJsonObject(structuredContent)) return result as UpstreamToolResult;
  return rest as UpstreamToolResult;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
