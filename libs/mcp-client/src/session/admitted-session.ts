import {
  SdkError,
  SdkErrorCode,
  type CallToolResult,
  type Client,
  type ProtocolEra,
} from '@modelcontextprotocol/client';
import type { CallHeaderBinding, CallSendOptions } from '../transport/call-headers-binding.js';

// A connected session to one admitted server. The SDK has no cancellation acknowledgement, so an aborted or
// timed-out request on a stdio child closes the child rather than pretending the call was cancelled cleanly
// (an HTTP request is simply abandoned: its stream closes with it). Nothing here retries or replays a call.

export interface SessionIdentity {
  readonly serverName: string;
  readonly protocolVersion: string;
  /** `legacy`: a 2025-era `initialize` handshake; `modern`: 2026-07-28 or later, negotiated by `server/discover`. */
  readonly protocolEra: ProtocolEra;
  readonly serverInfo: { readonly name: string; readonly version: string };
}

export interface AdmittedSessionInit extends SessionIdentity {
  readonly client: Client;
  readonly transportKind: 'http' | 'stdio';
  readonly origin: string;
  /** Epoch ms when the startup bound (handshake and the initial listing) runs out. */
  readonly startupDeadline: number;
  /** The server's startup bound itself (its startupTimeoutMs, else the configured default). */
  readonly startupTimeoutMs: number;
  /** Releases what the transport held beside the client (the pinned fetch's pool). */
  readonly release: () => Promise<void>;
  /** Per-call headers, when the server may receive them (trace context on a listed origin); else null. */
  readonly callHeaders?: CallHeaderBinding | null;
  /** We declared elicitation to this server (its definition opted in). */
  readonly elicitation?: boolean;
}

export interface RequestBounds {
  readonly signal?: AbortSignal;
  readonly timeoutMs?: number;
}

export class AdmittedSession {
  readonly identity: SessionIdentity;
  readonly transportKind: 'http' | 'stdio';
  readonly origin: string;
  readonly startupDeadline: number;
  readonly startupTimeoutMs: number;
  /** We declared elicitation to this server (its definition opted in): its requests may be relayed. */
  readonly elicitation: boolean;
  private readonly sdkClient: Client;
  private readonly release: () => Promise<void>;
  private readonly callHeaders: CallHeaderBinding | null;
  private closed = false;

  constructor(init: AdmittedSessionInit) {
    this.sdkClient = init.client;
    this.release = init.release;
    this.callHeaders = init.callHeaders ?? null;
    this.elicitation = init.elicitation ?? false;
    this.transportKind = init.transportKind;
    this.origin = init.origin;
    this.startupDeadline = init.startupDeadline;
    this.startupTimeoutMs = init.startupTimeoutMs;
    this.identity = {
      serverName: init.serverName,
      protocolVersion: init.protocolVersion,
      protocolEra: init.protocolEra,
      serverInfo: init.serverInfo,
    };
  }

  /** The SDK client, for this lib's own discovery and supervision (it never leaves libs/mcp-client's surface). */
  get client(): Client {
    return this.sdkClient;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** What the server declared in `initialize` (discovery calls only what is declared). */
  serverCapabilities(): ReturnType<Client['getServerCapabilities']> {
    return this.sdkClient.getServerCapabilities();
  }

  /** Milliseconds left of the startup bound (0 once it has run out). */
  startupTimeLeft(now: number = Date.now()): number {
    return Math.max(0, this.startupDeadline - now);
  }

  /** One tool call, never replayed. An abort or timeout on stdio closes the child. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    bounds: RequestBounds = {},
  ): Promise<CallToolResult> {
    return this.guard(
      () =>
        this.sdkClient.callTool(
          { name, arguments: args },
          {
            ...(bounds.signal === undefined ? {} : { signal: bounds.signal }),
            ...(bounds.timeoutMs === undefined ? {} : { timeout: bounds.timeoutMs }),
          },
        ),
      bounds.signal,
    );
  }

  /** MCP `ping`: the server answers an empty result if it is alive. An abort or timeout on stdio closes the child. */
  async ping(bounds: RequestBounds = {}): Promise<void> {
    await this.guard(
      () =>
        this.sdkClient.ping({
          ...(bounds.signal === undefined ? {} : { signal: bounds.signal }),
          ...(bounds.timeoutMs === undefined ? {} : { timeout: bounds.timeoutMs }),
        }),
      bounds.signal,
    );
  }

  /**
   * Starts one tool call (`start` hands the options it is given to the SDK client's `callTool`) with headers of
   * its own: sent on that call's POST and its cancellation only, and only when this server may receive them;
   * otherwise dropped.
   */
  withCallHeaders<T>(
    headers: Readonly<Record<string, string>>,
    start: (options: CallSendOptions) => Promise<T>,
  ): Promise<T> {
    return this.callHeaders === null ? start({}) : this.callHeaders.run(headers, start);
  }

  /** Runs one request; when it was aborted or timed out and this is a stdio child, closes the child. */
  async guard<T>(request: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await request();
    } catch (error) {
      const timedOut = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
      if ((timedOut || signal?.aborted === true) && this.transportKind === 'stdio') await this.close();
      throw error;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.sdkClient.close();
    } finally {
      await this.release();
    }
  }
}
