import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  isJsonContentType,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  SERVER_INFO_META_KEY,
  type JSONRPCRequest,
} from '@modelcontextprotocol/server';
import type { GatewayCaller } from '../../callers/caller.js';
import { errorOf, isObject, type JsonRpcMessage } from '../jsonrpc-answer.js';
import type { ToolCallHandler, ToolCallParams } from '../tool-call-handler.js';

// The 2026 leg's hot path: a plain tools/call answered without building a server for it (decision 0146). A
// 2026-07-28 request is one exchange, and most are a tools/call that needs nothing but the call: the per-request
// handler's Server, transport and second classification were most of the gateway's CPU per call. This path takes
// only what the SDK's classifier has already accepted (a JSON-RPC request of the 2026 era whose whole `_meta`
// envelope is valid and whose standard headers, where present, agree with the body), with every standard header
// present, a string name and object arguments (the params the SDK's tools/call schema requires), and nothing in it
// that asks more of the exchange than one answer: no progress token (a stream), no declared elicitation (a bridge round), no
// requestState or inputResponses (a retry), no task, no other reserved `_meta` key. It calls the same
// toolCallHandler the SDK's server calls, and answers as the SDK's per-request handler answers a handler's result:
// one JSON body, `resultType: 'complete'`, the server's identity in the result's `_meta`. Anything else goes to
// the SDK, which judges it as it always has (modern-exchanges). plain-tool-calls.int-spec holds the two equal.

export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** The reserved envelope keys a plain call may carry: the three every 2026 request carries. */
const ENVELOPE_KEYS = new Set([
  PROTOCOL_VERSION_META_KEY,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
]);
const RESERVED_PREFIX = 'io.modelcontextprotocol/';
/** Params members that make a call more than one exchange (a retry's, a task's). */
const ROUND_MEMBERS = ['requestState', 'inputResponses', 'task'];

export interface PlainCall {
  readonly id: string | number;
  readonly params: ToolCallParams;
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}

function isPlainMeta(meta: unknown): boolean {
  if (!isObject(meta) || meta[PROTOCOL_VERSION_META_KEY] !== MODERN_PROTOCOL_VERSION) return false;
  for (const key in meta) {
    if (key === 'progressToken') return false;
    if (key.startsWith(RESERVED_PREFIX) && !ENVELOPE_KEYS.has(key)) return false;
  }
  const capabilities = meta[CLIENT_CAPABILITIES_META_KEY];
  return isObject(capabilities) && !('elicitation' in capabilities);
}

/** The call, when the accepted request is one this path serves exactly as the SDK would; else undefined. */
export function plainCallOf(headers: IncomingHttpHeaders, accepted: JSONRPCRequest): PlainCall | undefined {
  const { method, params, id } = accepted;
  if (method !== 'tools/call' || !isObject(params)) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || (args !== undefined && !isObject(args))) return undefined;
  if (ROUND_MEMBERS.some((member) => member in params) || !isPlainMeta(params._meta)) return undefined;
  if (
    !isJsonContentType(headerOf(headers, 'content-type')) ||
    headerOf(headers, 'mcp-protocol-version') !== MODERN_PROTOCOL_VERSION ||
    headerOf(headers, 'mcp-method') !== method ||
    headerOf(headers, 'mcp-name') !== name
  )
    return undefined;
  return { id, params: { name, arguments: args ?? {} } };
}

/** The SDK's stamp on a complete result of the 2026 era: its kind, and who answered it. */
function completeResult(result: Readonly<Record<string, unknown>>, serverInfo: object): JsonRpcMessage {
  const meta = isObject(result._meta) ? result._meta : {};
  return { ...result, resultType: 'complete', _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}

function answer(response: ServerResponse, message: JsonRpcMessage, status = 200): void {
  if (response.writableEnded || response.destroyed) return;
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(message));
}

/** Runs one plain call and answers it; the call is abandoned when `signal` aborts (the client went away). */
export async function answerPlainCall(
  response: ServerResponse,
  call: PlainCall,
  caller: GatewayCaller,
  callTool: ToolCallHandler,
  channel: { readonly signal: AbortSignal; readonly requestHeaders: IncomingHttpHeaders },
  serverInfo: object,
): Promise<void> {
  const { id } = call;
  try {
    const result = await callTool(caller, call.params, channel);
    answer(response, { jsonrpc: '2.0', id, result: completeResult(result, serverInfo) });
  } catch (thrown) {
    const error = errorOf(thrown);
    // A handler's error is in-band (200) but for one: the spec puts a missing client capability on HTTP 400
    // wherever it arises, and the SDK's per-request transport answers it so; this path answers as that one does.
    const status = error['code'] === ProtocolErrorCode.MissingRequiredClientCapability ? 400 : 200;
    answer(response, { jsonrpc: '2.0', id, error }, status);
  }
}
