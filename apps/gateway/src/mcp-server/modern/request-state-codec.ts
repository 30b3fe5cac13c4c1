import { hkdfSync } from 'node:crypto';
import {
  createRequestStateCodec,
  type RequestStateCodec,
  type ServerContext,
} from '@modelcontextprotocol/server';

// The key and binding of the `requestState` a 2026 client carries between the rounds of one tools/call (decision
// 0144, the elicitation bridge). Signed with HMAC-SHA256 by the SDK's codec, short-lived, and bound to the caller's
// token, workspace and surface: a state minted for one caller is refused for any other, forged or expired ones
// too (the SDK answers -32602 "Invalid or expired requestState" before the handler runs). The key is derived from
// the gateway's own token, so every replica of one gateway verifies what another minted, and a rotated token ends
// the rounds in flight (a client starts its call again). The state is signed, not encrypted: it holds hashes of
// the call and of the upstream's questions, and the client's own answers, nothing the client does not know.

export const REQUEST_STATE_TTL_SECONDS = 300;

export function requestStateKeyOf(gatewayToken: string): Buffer {
  return Buffer.from(hkdfSync('sha256', gatewayToken, 'gatehouse', 'gateway requestState v1', 32));
}

export function requestStateCodec<T>(
  key: Uint8Array,
  bindingOf: (ctx: ServerContext) => string,
): RequestStateCodec<T> {
  return createRequestStateCodec<T>({ key, ttlSeconds: REQUEST_STATE_TTL_SECONDS, bind: bindingOf });
}
