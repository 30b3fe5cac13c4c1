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
  return (await readLines(log)).map((line) => JSON.parse(line) as TappedMessage);
}

/**
 * Resolves with the tapped messages once one of them satisfies `found`: awaits the log's changes (fs.watch on its
 * directory, started before the first read so no write is missed), never a timer.
 */
export function waitForTap(
  log: string,
  found: (message: TappedMessage) => boolean,
): Promise<TappedMessage[]> {
  return waitForFile(log, readTap, (messages) => messages.some(found));
}

/** The lines of a file (none when it does not exist yet), e.g. a lingering tap's STDIO_TAP_LINGER record. */
export async function readLines(path: string): Promise<string[]> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return '';
    throw error;
  });
  return text.split('\n').filter((line) => line.trim() !== '');
}

/** Resolves with the file's lines once one of them satisfies `found`, as waitForTap does. */
export function waitForLine(path: string, found: (line: string) => boolean): Promise<string[]> {
  return waitForFile(path, readLines, (lines) => lines.some(found));
}

async function waitForFile<T>(
  path: string,
  read: (path: string) => Promise<T>,
  done: (read: T) => boolean,
): Promise<T> {
  let settle: (value: T) => void = () => undefined;
  let fail: (error: unknown) => void = () => undefined;
  const settled = new Promise<T>((resolved, failed) => {
    settle = resolved;
    fail = failed;
  });
  const check = () =>
    void read(path).then((value) => {
      if (done(value)) settle(value);
    }, fail);
  const watcher = watch(dirname(path), (_event, filename) => {
    if (filename === basename(path)) check();
  });
  try {
    check();
    return await settled;
  } finally {
    watcher.close();
  }
}
