// A caller's W3C trace context (traceparent, tracestate), read from the headers of the one request that made a tool
// call and held to the W3C grammar before the gateway sends it on that call's own upstream requests (decision 0106;
// whether an upstream may receive it at all is the lease's word). A malformed traceparent is dropped with its
// tracestate; a malformed tracestate alone is dropped. Linear in the header's length, which is bounded first.

export type RequestHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface TraceContext {
  readonly traceparent: string;
  readonly tracestate?: string;
}

/** Version 00 only: 2 + 32 + 16 + 2 hex digits. A later version's extra fields are not ours to judge or pass. */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}$/;
const ALL_ZERO = /^0+$/;
/** W3C: a list of at most 32 members, and 512 characters a receiver must keep. */
const MAX_TRACESTATE_CHARS = 512;
const MAX_TRACESTATE_MEMBERS = 32;
const KEY = /^(?:[a-z][a-z0-9_\-*/]{0,255}|[a-z0-9][a-z0-9_\-*/]{0,240}@[a-z][a-z0-9_\-*/]{0,13})$/;
const VALUE = /^[\x20-\x2b\x2d-\x3c\x3e-\x7e]{0,255}[\x21-\x2b\x2d-\x3c\x3e-\x7e]$/;

/** The request's trace context, or null when it sent none or none that holds. */
export function traceContextOf(headers: RequestHeaders | undefined): TraceContext | null {
  const parent = headers?.['traceparent'];
  // Two traceparent headers are no traceparent.
  if (typeof parent !== 'string') return null;
  const match = TRACEPARENT.exec(parent);
  if (match === null || ALL_ZERO.test(match[1]!) || ALL_ZERO.test(match[2]!)) return null;
  const state = tracestateOf(headers?.['tracestate']);
  return state === null ? { traceparent: parent } : { traceparent: parent, tracestate: state };
}

/** The request headers of a trace context, as the upstream call sends them. */
export function traceHeadersOf(context: TraceContext | null): Readonly<Record<string, string>> | undefined {
  if (context === null) return undefined;
  return context.tracestate === undefined
    ? { traceparent: context.traceparent }
    : { traceparent: context.traceparent, tracestate: context.tracestate };
}

function tracestateOf(raw: string | readonly string[] | undefined): string | null {
  if (raw === undefined) return null;
  // Several tracestate headers are one list, in order.
  const joined = typeof raw === 'string' ? raw : raw.join(',');
  if (joined.length > MAX_TRACESTATE_CHARS) return null;
  const members = joined
    .split(',')
    .map((member) => member.trim())
    .filter((member) => member !== '');
  if (members.length === 0 || members.length > MAX_TRACESTATE_MEMBERS) return null;
  const keys = new Set<string>();
  for (const member of members) {
    const equals = member.indexOf('=');
    if (equals <= 0) return null;
    const key = member.slice(0, equals);
    if (!KEY.test(key) || !VALUE.test(member.slice(equals + 1)) || keys.has(key)) return null;
    keys.add(key);
  }
  return members.join(',');
}
