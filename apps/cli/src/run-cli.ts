import { CliError, EXIT, type CliIo } from './cli-io';
import { approvalsCommand } from './commands/approvals.command';
import { catalogCommand } from './commands/catalog.command';
import type { CliCommand } from './commands/cli-command';
import { connectCommand } from './commands/connect.command';
import { exportCommand } from './commands/export.command';
import { importCommand } from './commands/import.command';
import { loginCommand } from './commands/login.command';
import { serversCommand } from './commands/servers.command';

const COMMANDS: readonly CliCommand[] = Object.freeze([
  loginCommand,
  serversCommand,
  approvalsCommand,
  catalogCommand,
  importCommand,
  exportCommand,
  connectCommand,
]);

function printUsage(io: CliIo, commands: readonly CliCommand[]): void {
  io.out('usage: gatehouse <command> [options]   (gatehouse <command> --help for each)');
  for (const command of commands) io.out(`  ${command.name.padEnd(10)}${command.summary}`);
  io.out('  admin     operator commands on the database (gatehouse admin --help)');
  io.out(
    'exit codes: 0 done, 1 refused (the API said no, a file that may not be read), 2 usage, 3 cannot reach',
  );
}

/**
 * `gatehouse <command> [--options]` (the user's CLI; `gatehouse admin` is the operator's, in apps/api). Returns the
 * exit code; never throws. Errors are one line on stderr: ours verbatim (they never hold a token), anything
 * unexpected reduced to its class.
 */
export async function runCli(
  argv: readonly string[],
  io: CliIo,
  commands: readonly CliCommand[] = COMMANDS,
): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    printUsage(io, commands);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (command === undefined) {
    io.err(
      `gatehouse: unknown command ${name.slice(0, 40).replace(/[^\x21-\x7e]/g, '?')}; run gatehouse --help`,
    );
    return EXIT.usage;
  }
  try {
    await command.run(args, io);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CliError) {
      io.err(`gatehouse: ${error.message}`);
      return error.exitCode;
    }
    const rawName = (error as { name?: unknown } | null)?.name;
    const code = (error as { code?: unknown } | null)?.code;
    io.err(
      `gatehouse: failed: ${typeof rawName === 'string' ? rawName : 'error'}${typeof code === 'string' ? ` (${code})` : ''}`,
    );
    return EXIT.refused;
  }
}
