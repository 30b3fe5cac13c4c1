// expected-failures.yml holds every run's expected failures, one key per run. The suite's `--expected-failures`
// reads only its `client:` and `server:` keys (both versions ignore the others), so a run with a list of its own
// (`server-2026:`) hands the suite a file of its own that names that list `server:`.
import { writeFile, mkdtemp } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, stringify } from 'yaml';
import { z } from 'zod';

/** Every run's expected failures (this folder's expected-failures.yml). */
export const EXPECTED_FAILURES = join(
  resolve(__dirname, '..', '..'),
  'scripts',
  'conformance',
  'expected-failures.yml',
);

const listsSchema = z.record(z.string(), z.array(z.string().min(1)));

/** The entries under `key` (`<scenario>` or `<scenario>:<check-id>`). */
export function expectedFailures(key: string): readonly string[] {
  const lists = listsSchema.parse(parse(readFileSync(EXPECTED_FAILURES, 'utf8')));
  const list = lists[key];
  if (list === undefined) throw new Error(`${EXPECTED_FAILURES} has no '${key}:' list`);
  return list;
}

/** A temporary expected-failures file whose `server:` list is `entries`, for the suite's `--expected-failures`. */
export async function suiteServerBaseline(entries: readonly string[]): Promise<string> {
  const file = join(await mkdtemp(join(tmpdir(), 'gh-conformance-baseline-')), 'expected-failures.yml');
  await writeFile(file, stringify({ server: entries }));
  return file;
}
