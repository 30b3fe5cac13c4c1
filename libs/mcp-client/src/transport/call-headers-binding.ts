import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RequestHeaderHook } from './mcp-fetch.js';

// Headers that belong to ONE tool call (a caller's W3C trace context, decision 0106), sent only on that call's own
// `tools/call` POST and on the `notifications/cancelled` that names it, never on any other request of the
// connection. The call is bound to its JSON-RPC id at the moment the SDK hands the message to the transport (the
// Protocol sends synchronously from `callTool`, so the binding is made within the caller's own stack, never read
// from ambient async context); the fetch's per-request hook then decides from each request's own body: its
// method, and its id (or, for a cancellation, the id it cancels). Nothing bound, nothing sent.

type Headers = Readonly<Record<string, string>>;
type JsonRpcId = string | number;

/** Cancellations remembered after their call settled (a cancellation's POST may be built after the call ended). */
const MAX_CANCELLED = 256;

export class CallHeaderBinding {
  /** The call being started right now (set and cleared within one synchronous stretch). */
  private pending: { readonly headers: Headers; id: JsonRpcId | null } | null = null;
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
      if (this.pending !== null && sent.method === 'tools/call' && isId(sent.id)) {
        this.byId.set(sent.id, this.pending.headers);
        this.pending.id = sent.id;
        this.pending = null;
      } else if (sent.method === 'notifications/cancelled' && isRecord(sent.params)) {
        const cancels = sent.params['requestId'];
        const headers = isId(cancels) ? this.byId.get(cancels) : undefined;
        if (headers !== undefined && isId(cancels)) this.rememberCancelled(cancels, headers);
      }
      return send(message, options);
    };
  }

  /**
   * Runs `start` (which must send exactly one `tools/call` synchronously, as the SDK client's callTool does) with
   * `headers` bound to the call it sends, and forgets them when it settles.
   */
  async run<T>(headers: Headers, start: () => Promise<T>): Promise<T> {
    if (Object.keys(headers).length === 0) return start();
    const call: { readonly headers: Headers; id: JsonRpcId | null } = { headers, id: null };
    this.pending = call;
    let started: Promise<T>;
    try {
      started = start();
    } finally {
      this.pending = null;
    }
    try {
      return await started;
    } finally {
      if (call.id !== null) this.byId.delete(call.id);
    }
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
