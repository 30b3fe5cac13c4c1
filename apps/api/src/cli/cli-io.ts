/** What the CLI touches of its process, so tests run it in-process and read what it printed. */
export interface CliIo {
  /** One line of results on stdout (the newline is added). */
  out(line: string): void;
  /** One line of diagnostics on stderr (the newline is added). */
  err(line: string): void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** All of stdin (for --password-stdin). */
  readStdin(): Promise<string>;
}

export function processIo(): CliIo {
  return {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin)
        chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

/** Exit codes: 0 done; 1 refused or failed (slug taken, database down); 2 usage or configuration error. */
export const EXIT = Object.freeze({ ok: 0, refused: 1, usage: 2 });

/** A failure the CLI reports as one line and an exit code (never a stack, never a secret). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.refused,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export function usageError(message: string): CliError {
  return new CliError(message, EXIT.usage);
}
