import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { COMMANDS, problemsOf } from '@gatehouse/commands';
import { PROBLEM_CODES } from '@gatehouse/contracts';

// Every problem code the API can answer is in the one list (libs/contracts). ProblemError only takes a
// ProblemCode (the compiler's check); this reads the sources too, so a code spelt in a problem-shaped object
// outside ProblemError (a table, a raw reply) cannot slip by, and every command's declared list is checked.

const ROOT = join(__dirname, '..', '..', '..', '..');
const SOURCES = ['apps/api/src', 'libs/platform/src', 'apps/gateway/src', 'apps/worker/src'];
// `status: 404, code: 'not_found'` or `code: 'not_found', title:`: the shapes a problem is written in.
const PROBLEM_SHAPES = [/status: \d{3},\s*code: '([a-z_]+)'/g, /code: '([a-z_]+)',\s*title:/g];

function sources(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : sources(full);
    return /\.ts$/.test(entry.name) && !/\.(int-)?spec\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('problem codes the API can answer', () => {
  it('are all in PROBLEM_CODES, wherever a problem is spelt', () => {
    const listed = new Set<string>(PROBLEM_CODES);
    const found: string[] = [];
    const unlisted: string[] = [];
    for (const file of SOURCES.flatMap((dir) => sources(join(ROOT, dir)))) {
      const text = readFileSync(file, 'utf8');
      for (const shape of PROBLEM_SHAPES) {
        for (const match of text.matchAll(shape)) {
          const code = match[1] as string;
          found.push(code);
          if (!listed.has(code)) unlisted.push(`${relative(ROOT, file)}: ${code}`);
        }
      }
    }
    expect(found.length).toBeGreaterThan(30);
    expect(unlisted).toEqual([]);
  });

  it('include every code a command declares', () => {
    for (const command of COMMANDS) for (const code of problemsOf(command)) expect(PROBLEM_CODES).toContain(code);
  });
});
