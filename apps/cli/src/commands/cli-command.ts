import type { CliIo } from '../cli-io';

/** One `gatehouse <name>` command: its one-line usage, its help text, and what it runs. */
export interface CliCommand {
  readonly name: string;
  readonly usage: string;
  readonly summary: string;
  /** Lines after the usage in `gatehouse <name> --help`. */
  readonly help: readonly string[];
  run(args: readonly string[], io: CliIo): Promise<void>;
}

/** `--help` of one command. */
export function printHelp(io: CliIo, command: CliCommand): void {
  io.out(`usage: ${command.usage}`);
  io.out(command.summary);
  for (const line of command.help) io.out(line);
}

/** Options every API-reading command takes. */
export const API_OPTIONS = {
  api: { type: 'string' },
  json: { type: 'boolean', default: false },
} as const;

export const API_HELP = [
  '  --api <url>   the Gatehouse API (default: GATEHOUSE_API_URL, else the one gatehouse login stored)',
  '  --json        one JSON document on stdout instead of a table',
  'The token: GATEHOUSE_TOKEN, else the one gatehouse login stored (never an option).',
];
