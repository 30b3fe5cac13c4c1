import type { Transport } from '@modelcontextprotocol/client';
import type { RequestHeaderHook } from './mcp-fetch.js';

// Headers that belong to ONE tool call (a caller's W3C trace context, decision 0106), sent only on that call's own
// `tools/call` POST and on the `notifications/cancelled` that names it, never on any other request of the
// connection. The call hands its headers to the SDK client as that request's own send options (the v2 client
// resolves the tool's definition before it sends, so nothing may be bound by "the next message sent"); the
// transport's send is watched, and a `tools/call` whose send options carry a call's headers binds them to its
// JSON-RPC id (a retried leg of the same call, answering an upstream's input_required, binds again). The headers
// are taken out of the send options there, so the fetch's per-request hook, which checks who may own each name,
// is what puts them on the POST: from each request's own body, its method and its id (or, for a cancellation,
// the id it cancels). Nothing bound, nothing sent.

type Headers = Readonly<Record<string, string>>;
type JsonRpcId = string | number;

/** What a call hands to the SDK client's `callTool` as options: its headers, when it may send any. */
export interface CallSendOptions {
  readonly headers?: Headers;
}

/** Cancellations remembered after their call settled (a cancellation's POST may be built after the call ended). */
const MAX_CANCELLED = 256;

export class CallHeaderBinding {
  /** The headers of every call in flight (each a record of its own). */
  private readonly active = new Set<Headers>();
  private readonly byId = new Map<JsonRpcId, Headers>();
  private readonly cancelled = new Map<JsonRpcId, Headers>();

  /** For the transport's fetch: the headers of the call this request is (or cancels), else none. */
  readonly hook: RequestHeaderHook = ({ method, body }) => {
    if (method !== 'POST' || !isRecord(body)) return {};
    if (body['method'] === 'tools/call' && isId(body['id'])) return this.byId.get(body['id']) ?? {};
    if (body['method'] === 'notifications/cancelled') {
      const cancels = isRecord(body['params']) ? body['params']['requestId'] : undefined;
      if (isId(cancels)) return this.cancelled.get(cancels) ?? this.byId.get(cancels) ?? {};
    }
    return {};
  };

  /** Watches what the connection's Protocol sends: call once the client is connected. */
  watch(transport: Pick<Transport, 'send'>): void {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const sent = message as { method?: unknown; id?: unknown; params?: unknown };
      if (sent.method === 'tools/call' && isId(sent.id) && options?.headers !== undefined) {
        const call = this.callIn(options.headers);
        if (call !== undefined) {
          this.byId.set(sent.id, call);
          const rest = Object.fromEntries(
            Object.entries(options.headers).filter(([name]) => !(name in call)),
          );
          return send(message, { ...options, headers: rest });
        }
      } else if (sent.method === 'notifications/cancelled' && isRecord(sent.params)) {
        const cancels = sent.params['requestId'];
        const headers = isId(cancels) ? this.byId.get(cancels) : undefined;
        if (headers !== undefined && isId(cancels)) this.rememberCancelled(cancels, headers);
      }
      return send(message, options);
    };
  }

  /**
   * Runs `start` (which hands the options it is given to the SDK client's `callTool`) with `headers` bound to the
   * requests that call sends, and forgets them when it settles.
   */
  async run<T>(headers: Headers, start: (options: CallSendOptions) => Promise<T>): Promise<T> {
    if (Object.keys(headers).length === 0) return start({});
    const call: Headers = { ...headers };
    this.active.add(call);
    try {
      return await start({ headers: call });
    } finally {
      this.active.delete(call);
      for (const [id, bound] of this.byId) if (bound === call) this.byId.delete(id);
    }
  }

  /** The call in flight whose every header the send options carry (the SDK may have added its own beside them). */
  private callIn(sent: Headers): Headers | undefined {
    for (const call of this.active) {
      if (Object.entries(call).every(([name, value]) => sent[name] === value)) return call;
    }
    return undefined;
  }

  private rememberCancelled(id: JsonRpcId, headers: Headers): void {
    this.cancelled.set(id, headers);
    if (this.cancelled.size > MAX_CANCELLED) {
      const oldest = this.cancelled.keys().next().value;
      if (oldest !== undefined) this.cancelled.delete(oldest);
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || typeof value === 'number';
}
