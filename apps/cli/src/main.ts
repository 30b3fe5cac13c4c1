import { processIo } from './cli-io';
import { runCli } from './run-cli';

/** Entry point of bin/gatehouse.cjs for every command but `admin` (the built dist/apps/cli/src/main.js). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, processIo());
}
