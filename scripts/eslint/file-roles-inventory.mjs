// Lists the file roles in use under apps/ and libs/ (CODE_STYLE.md), with counts:
//   node scripts/eslint/file-roles-inventory.mjs            every role suffix (test markers set aside) and its count
//   node scripts/eslint/file-roles-inventory.mjs --offenders   the files that break the convention, each with a
//                                                            suggested new name
// The role of a file is what stands between the first '.' of its name and its test marker or extension
// (`approve-request.use-case.ts`: use-case; `tool-name.guard.spec.ts`: guard); a name without a '.' is plain.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileNameParts, fileRoleProblem } from './file-roles.mjs';

const SOURCE = /\.tsx?$/;
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean);
const files = [
  ...new Set([
    ...git('ls-files', 'apps', 'libs'),
    ...git('ls-files', '--others', '--exclude-standard', 'apps', 'libs'),
  ]),
]
  .filter((path) => SOURCE.test(path) && !path.endsWith('.d.ts') && existsSync(path))
  .sort();

// Where a legacy role has a canonical one that means the same; any other unknown role becomes part of the name.
const CANONICAL = {
  check: 'guard',
  schemas: 'schema',
  commands: 'command',
  'test-fixture': 'fixtures',
  fixture: 'fixtures',
  'test-helper': 'harness',
};

function suggestedName(fileName) {
  const { stem, role, marker } = fileNameParts(fileName);
  const extension = fileName.match(SOURCE)[0];
  const renamed =
    role === 'problem' || role === 'problems'
      ? `${stem}-problems`
      : CANONICAL[role] !== undefined
        ? `${stem}.${CANONICAL[role]}`
        : `${stem}-${role.replaceAll('.', '-')}`;
  return `${renamed}${marker ?? ''}${extension}`;
}

if (process.argv.includes('--offenders')) {
  for (const path of files.filter((candidate) => fileRoleProblem(candidate) !== null)) {
    console.log(`  '${path}', // -> ${suggestedName(path.slice(path.lastIndexOf('/') + 1))}`);
  }
} else {
  const counts = new Map();
  for (const path of files) {
    const role = fileNameParts(path.slice(path.lastIndexOf('/') + 1)).role ?? '(plain)';
    counts.set(role, (counts.get(role) ?? 0) + 1);
  }
  const rows = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [role, count] of rows) console.log(`${String(count).padStart(5)}  ${role}`);
  console.log(
    `${files.length} files, ${rows.length - (counts.has('(plain)') ? 1 : 0)} distinct role suffixes`,
  );
}
