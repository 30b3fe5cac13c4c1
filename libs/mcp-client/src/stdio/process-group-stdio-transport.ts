import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { McpTransportError } from '../transport/transport-error.js';
import { BoundedLineReader } from './bounded-line-reader.js';

// The stdio transport Gatehouse spawns children with, instead of the SDK's StdioClientTransport (which merges the
// worker's environment, inherits stderr and cannot start a process group). The child runs with shell: false, in
// its own process group (a new session: `detached`), as the given uid/gid, with exactly the given environment
// and cwd; stdout is read through the receive cap; stderr is drained and dropped, never published. Close ends
// stdin, waits a bound for the child, then signals the WHOLE group (TERM, then KILL), so a grandchild the server
// forked does not outlive the session.

export interface ProcessGroupStdioOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** The unprivileged identity to run as; null: the worker's own (it cannot switch). */
  readonly runAs: { readonly uid: number; readonly gid: number } | null;
  /** Names the child in errors (`stdio:<server>`), never its argv. */
  readonly origin: string;
  readonly receiveCapBytes: number;
  /**
   * Bytes written to the child and not yet read by it, past which the child is taken as failed (default
   * {@link DEFAULT_SEND_BACKLOG_BYTES}).
   */
  readonly sendBacklogBytes?: number;
  /** How long close waits for the child after ending stdin, and again after TERM. */
  readonly closeGraceMs: number;
  /** Told of the child's process group as it starts and once it is gone (a reaper outside this process). */
  readonly groups?: ProcessGroupObserver | null;
}

/**
 * Who must know which process groups this process's children lead, and until when: a watcher that outlives this
 * process (apps/worker's reaper) ends the groups still open if this process dies without closing them.
 */
export interface ProcessGroupObserver {
  opened(pgid: number): void;
  closed(pgid: number): void;
}

/**
 * What a child may leave unread on its stdin. Every answer to a child that never reads is held in our heap (the
 * answers and the SDK's state for each request they answer); past this the connection is failed, not queued.
 */
export const DEFAULT_SEND_BACKLOG_BYTES = 1024 * 1024;

export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;

  private child: ChildProcessWithoutNullStreams | null = null;
  private closing: Promise<void> | null = null;
  /** Writes to the child are held until the event loop's check phase (see send). */
  private corked = false;
  /** Settles once the child has read what was queued for it (or is gone): one wait shared by every send. */
  private drained: Promise<void> | null = null;
  private readonly reader: BoundedLineReader;

  constructor(private readonly options: ProcessGroupStdioOptions) {
    this.reader = new BoundedLineReader(options.receiveCapBytes);
  }

  /** The child's pid (also its process group id), while it runs. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /**
   * Never readable: the child's stderr is drained and dropped. It is here because the SDK takes a transport with
   * `pid` and `stderr` for a stdio one, where a version probe that goes unanswered means a 2025-era server
   * rather than an outage.
   */
  get stderr(): null {
    return null;
  }

  start(): Promise<void> {
    if (this.child !== null) throw new Error('ProcessGroupStdioTransport already started');
    const { command, args, env, cwd, runAs } = this.options;
    return new Promise((resolve, reject) => {
      const child = spawn(command, [...args], {
        env: { ...env },
        cwd,
        shell: false,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        ...(runAs === null ? {} : { uid: runAs.uid, gid: runAs.gid }),
      });
      this.child = child;
      let spawned = false;
      child.once('error', () => {
        if (!spawned) reject(new McpTransportError('spawn_failed', this.options.origin));
        else this.fail(new McpTransportError('child_exited', this.options.origin));
      });
      child.once('spawn', () => {
        spawned = true;
        if (child.pid !== undefined) this.options.groups?.opened(child.pid);
        resolve();
      });
      // Drained and dropped: a server's stderr can carry secrets from its env or its upstream.
      child.stderr.resume();
      child.stdin.on('error', () => undefined);
      child.stdout.on('data', (chunk: Buffer) => this.receive(chunk));
      child.once('close', () => {
        const wasOpen = this.child === child && this.closing === null;
        this.child = null;
        this.killGroup(child, 'SIGKILL');
        if (spawned && child.pid !== undefined) this.options.groups?.closed(child.pid);
        if (wasOpen) this.onerror?.(new McpTransportError('child_exited', this.options.origin));
        this.onclose?.();
      });
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const child = this.child;
    if (child === null || this.closing !== null) {
      return Promise.reject(new McpTransportError('not_connected', this.options.origin));
    }
    // The messages of one turn of the event loop (the calls of many sessions at once) go to the child in one
    // write: one pipe write and one wake-up of the child instead of one per message.
    if (!this.corked) {
      this.corked = true;
      child.stdin.cork();
      setImmediate(() => {
        this.corked = false;
        child.stdin.uncork();
      });
    }
    // What the child has not read is queued here, in our heap: past the bound it is failed, never queued further.
    // Checked before this write, so one message larger than the bound (a large call) still goes to a child that
    // reads.
    if (child.stdin.writableLength > (this.options.sendBacklogBytes ?? DEFAULT_SEND_BACKLOG_BYTES)) {
      const error = new McpTransportError('send_backlog', this.options.origin);
      this.fail(error);
      return Promise.reject(error);
    }
    if (child.stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    this.drained ??= new Promise<void>((resolve) => {
      const settle = () => {
        child.stdin.off('drain', settle);
        child.stdin.off('close', settle);
        this.drained = null;
        resolve();
      };
      child.stdin.on('drain', settle);
      child.stdin.on('close', settle);
    });
    return this.drained;
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const child = this.child;
    this.reader.clear();
    if (child === null) return;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    child.stdin.end();
    if (await this.within(closed)) return;
    this.killGroup(child, 'SIGTERM');
    if (await this.within(closed)) return;
    this.killGroup(child, 'SIGKILL');
    await this.within(closed);
  }

  private within(event: Promise<void>): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), this.options.closeGraceMs);
      void event.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /** Signals the child's whole process group (its pid is the group id: it was started detached). */
  private killGroup(child: ChildProcessWithoutNullStreams, signal: NodeJS.Signals): void {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  }

  private receive(chunk: Buffer): void {
    const read = this.reader.push(chunk);
    if (!read.ok) {
      this.fail(new McpTransportError('message_too_large', this.options.origin));
      return;
    }
    for (const line of read.lines) {
      if (line.trim() === '') continue;
      let message: JSONRPCMessage;
      try {
        message = parseJSONRPCMessage(JSON.parse(line));
      } catch {
        // The line's text is not kept: it is the server's output, not ours to echo.
        this.onerror?.(new Error(`mcp transport: unparsable message from ${this.options.origin}`));
        continue;
      }
      this.onmessage?.(message);
    }
  }

  private fail(error: McpTransportError): void {
    this.onerror?.(error);
    void this.close();
  }
}
