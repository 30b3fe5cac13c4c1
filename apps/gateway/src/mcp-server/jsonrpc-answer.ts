import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

// What the paths that answer a tools/call without the SDK's transport (a 2025 session's warm call, a 2026 plain
// call) share with each other and with the SDK: how a thrown error becomes the JSON-RPC error the client reads.
// The SDK sends a ProtocolError's code, message and data as they are, and anything else as an internal error.

export type JsonRpcMessage = Record<string, unknown>;

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function errorOf(error: unknown): JsonRpcMessage {
  if (error instanceof ProtocolError)
    return {
      code: error.code,
      message: error.message,
      ...(error.data === undefined ? {} : { data: error.data }),
    };
  return { code: ProtocolErrorCode.InternalError, message: 'Internal error' };
}
