// The stdio tap (stdio-tap.process.mjs) from the test's side: where the script is, and what one child was sent.
import { watch } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** The wrapper script: run as `node <STDIO_TAP_SCRIPT> <server script> [args...]`. */
export const STDIO_TAP_SCRIPT = join(__dirname, 'stdio-tap.process.mjs');

export interface TappedMessage {
  readonly id?: string | number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
}

/** Every JSON-RPC message the child's parent sent it so far (none when the log does not exist yet). */
export async function readTap(log: string): Promise<TappedMessage[]> {
  const text = await readFile(log, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TappedMessage);
}

/**
 * Resolves with the tapped messages once one of them satisfies `found`: awaits the log's changes (fs.watch on its
 * directory, started before the first read so no write is missed), never a timer.
 */
export async function waitForTap(
  log: string,
  found: (message: TappedMessage) => boolean,
): Promise<TappedMessage[]> {
  let settle: (messages: TappedMessage[]) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const settled = new Promise<TappedMessage[]>((done, failed) => {
    settle = done;
    fail = failed;
  });
  const check = () =>
    void readTap(log).then((messages) => {
      if (messages.some(found)) settle(messages);
    }, fail);
  const watcher = watch(dirname(log), (_event, filename) => {
    if (filename === basename(log)) check();
  });
  try {
    check();
    return await settled;
  } finally {
    watcher.close();
  }
}
