// Programs the specs need that are not devDependencies (they ask for a newer Node than the project runs, or bring
// a web UI nobody here uses): npm fetches each exact-pinned package into its own cache (`~/.npm/_npx/…`, once per
// machine) with `npm exec`, and a small script run inside that exec prints where it landed. Nothing of it enters
// node_modules, so npm scripts keep the machine's Node on PATH.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * Runs `node -p <expression>` inside `npm exec --yes --package=<pinned>` (the package's bins first on PATH) and
 * returns the JSON the expression printed, unchecked: the caller validates it.
 */
export async function printInsideNpmExec(
  pinned: string,
  expression: string,
  timeoutMs: number,
): Promise<unknown> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['exec', '--yes', `--package=${pinned}`, '--', 'node', '-p', expression],
    { timeout: timeoutMs },
  );
  // npm's own notices go to stderr; the expression's JSON is the last line of stdout.
  const printed = stdout.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(printed) as unknown;
  } catch {
    throw new Error(`npm exec ${pinned} printed ${JSON.stringify(printed)}, not JSON`);
  }
}

/** Memoises one async lookup per process; a failed lookup is forgotten so the next caller tries again. */
export function once<T>(lookup: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= lookup().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
