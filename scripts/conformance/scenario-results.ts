// The conformance suite's per-scenario results (`-o <dir>`: one folder per scenario, `server-<scenario>-<time>`,
// holding `checks.json`), read back, and compared with an expected-failures list. The comparison follows the
// suite's own `--expected-failures` rules (a WARNING counts as a failure; `<scenario>` expects the scenario to
// fail, `<scenario>:<check-id>` expects exactly that check to), but over every scenario run: the suite's own
// check under `--requirements` leaves out the scenarios that revision does not score (extensions, pending ones).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const checkSchema = z.object({
  id: z.string(),
  status: z.string(),
  errorMessage: z.string().optional(),
});

export type ScenarioCheck = z.infer<typeof checkSchema>;

/** Each scenario's checks; `undefined` when the suite made a folder but wrote no checks.json (it crashed). */
export type ScenarioResults = ReadonlyMap<string, readonly ScenarioCheck[] | undefined>;

export interface BaselineDiff {
  /** Failing checks the list does not name (`scenario:check-id`). */
  readonly unexpected: readonly string[];
  /** Entries the run no longer fails (or never ran). */
  readonly stale: readonly string[];
}

const FOLDER = /^server-(.+)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;
/** A scenario's pseudo-check when it left no checks.json: it did not run to the end. */
const NO_CHECKS = '(no checks.json)';

export function readScenarioResults(dir: string): ScenarioResults {
  const results = new Map<string, readonly ScenarioCheck[] | undefined>();
  for (const folder of readdirSync(dir).sort()) {
    const scenario = FOLDER.exec(folder)?.[1];
    if (scenario === undefined) throw new Error(`unexpected folder in the suite's results: ${folder}`);
    const file = join(dir, folder, 'checks.json');
    results.set(
      scenario,
      existsSync(file) ? z.array(checkSchema).parse(JSON.parse(readFileSync(file, 'utf8'))) : undefined,
    );
  }
  return results;
}

const failing = (check: ScenarioCheck): boolean => check.status === 'FAILURE' || check.status === 'WARNING';

/** The ids of a scenario's failing checks (FAILURE or WARNING). */
export function failingCheckIds(checks: readonly ScenarioCheck[] | undefined): ReadonlySet<string> {
  return new Set(checks === undefined ? [NO_CHECKS] : checks.filter(failing).map((check) => check.id));
}

export function passes(checks: readonly ScenarioCheck[] | undefined): boolean {
  return failingCheckIds(checks).size === 0;
}

export function compareWithBaseline(results: ScenarioResults, baseline: readonly string[]): BaselineDiff {
  const wholeScenarios = new Set(baseline.filter((entry) => !entry.includes(':')));
  const perCheck = new Map<string, Set<string>>();
  for (const entry of baseline.filter((each) => each.includes(':'))) {
    const [scenario = '', ...rest] = entry.split(':');
    perCheck.set(scenario, (perCheck.get(scenario) ?? new Set()).add(rest.join(':')));
  }
  const unexpected: string[] = [];
  const stale: string[] = [];
  for (const [scenario, checks] of results) {
    const failed = failingCheckIds(checks);
    if (wholeScenarios.has(scenario)) {
      if (failed.size === 0) stale.push(scenario);
      continue;
    }
    const expected = perCheck.get(scenario) ?? new Set<string>();
    for (const id of failed) if (!expected.has(id)) unexpected.push(`${scenario}:${id}`);
    for (const id of expected) if (!failed.has(id)) stale.push(`${scenario}:${id}`);
  }
  for (const scenario of [...wholeScenarios, ...perCheck.keys()])
    if (!results.has(scenario)) stale.push(scenario);
  return { unexpected, stale };
}
