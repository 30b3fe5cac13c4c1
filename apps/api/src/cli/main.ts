import { processIo } from './cli-io';
import { runCli } from './run-cli';

/** Entry point of bin/gatehouse.cjs (the built dist/apps/api/src/cli/main.js). */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  process.exitCode = await runCli(argv, processIo());
}
