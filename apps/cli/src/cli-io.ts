import type { Readable, Writable } from 'node:stream';

/** What the CLI touches of its process, so tests run it in-process and read what it printed. */
export interface CliIo {
  /** One line of results on stdout (the newline is added). */
  out(line: string): void;
  /** One line of diagnostics on stderr (the newline is added). */
  err(line: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** All of stdin (the token for `login`). */
  readStdin(): Promise<string>;
  /** Whether stdin is a terminal (then `login` does not wait on it). */
  readonly stdinIsTerminal: boolean;
  /** The raw streams, for `connect` (stdio is its MCP channel); absent in tests that never connect. */
  readonly streams?: { readonly stdin: Readable; readonly stdout: Writable };
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    stdinIsTerminal: process.stdin.isTTY === true,
    streams: { stdin: process.stdin, stdout: process.stdout },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin)
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/**
 * Exit codes a script can rely on (README "The gatehouse CLI"):
 * 0 done; 1 refused (the API answered a problem, a file that may not be read, a token it does not accept);
 * 2 usage (an unknown command or option, a missing value, a file that is not what the command takes);
 * 3 cannot reach the API or the gateway (connection refused, DNS, timeout, an answer that is not the API's).
 */
export const EXIT = Object.freeze({ ok: 0, refused: 1, usage: 2, unreachable: 3 });
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI reports as one line and an exit code (never a stack, never a secret). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.refused,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
