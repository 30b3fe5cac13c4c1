// File roles (CODE_STYLE.md): a TypeScript file under apps/ or libs/ is either a plain kebab-case name
// (`definition-decoder.ts`: a module named for what it does) or a kebab-case name followed by one role suffix
// from ROLES (`approve-request.use-case.ts`), optionally followed by a test marker (`.spec`, `.int-spec`,
// `.timing.spec`). The ESLint rule `gatehouse-files/file-role` refuses anything else.

/** The roles a file may declare with a dot suffix, and what each means (CODE_STYLE.md repeats this table). */
export const ROLES = {
  'use-case': 'one application action: input in, result or problem out (apps/api)',
  service: 'a NestJS provider that several others share and that is not one action',
  module: 'a NestJS module: wiring only',
  controller: 'a NestJS controller: HTTP in, a use case called, HTTP out',
  routes: 'routes registered on Fastify or Next.js without a controller class',
  guard: 'a check that refuses: a NestJS guard, or a pure check that returns or throws a problem',
  schema: 'zod schemas and the types inferred from them',
  config: 'a configuration shape, read from the environment once at start',
  client: 'talks to another process of ours or a third party over the network',
  repository: 'libs/db only: what use cases cannot say with the Prisma model API (SQL, lookups, ...)',
  mapper: 'converts one shape into another, nothing else',
  holder: 'keeps a value (a lease, a token) current in the background and hands it out',
  port: 'an interface that adapters implement (no code)',
  store: 'an implementation of a port that keeps state (Redis, memory, a file)',
  policy: 'a pure rule that decides (admit or refuse, wait how long)',
  command: 'command definitions: libs/commands entries, the CLI subcommands',
  actions: 'Next.js server actions of one area ("use server")',
  harness: 'test tooling that starts or drives something real for specs',
  fixtures: 'test data and its builders',
};

/** Test markers, checked before the role: `tool-name.guard.spec.ts` tests `tool-name.guard.ts`. */
export const TEST_MARKERS = ['.timing.spec', '.int-spec', '.spec'];

const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*$/;
const SOURCE = /\.(ts|tsx)$/;

/** The parts of a file name: its kebab stem, its role (null: a plain name) and its test marker (null: not a spec). */
export function fileNameParts(fileName) {
  let rest = fileName.replace(SOURCE, '');
  const marker = TEST_MARKERS.find((candidate) => rest.endsWith(candidate)) ?? null;
  if (marker !== null) rest = rest.slice(0, -marker.length);
  const dot = rest.indexOf('.');
  return dot === -1
    ? { stem: rest, role: null, marker }
    : { stem: rest.slice(0, dot), role: rest.slice(dot + 1), marker };
}

/** Why a file name breaks the convention, or null when it keeps it. Paths are relative to the repo root. */
export function fileRoleProblem(path) {
  const posix = path.split('\\').join('/');
  if (!/^(apps|libs)\//.test(posix) || !SOURCE.test(posix) || posix.endsWith('.d.ts')) return null;
  const fileName = posix.slice(posix.lastIndexOf('/') + 1);
  const { stem, role } = fileNameParts(fileName);
  if (!KEBAB.test(stem)) return `'${fileName}': the name before the role is not kebab-case (CODE_STYLE.md)`;
  if (role !== null && !Object.hasOwn(ROLES, role)) {
    return `'${fileName}': '.${role}' is not a file role (CODE_STYLE.md); use one of ${Object.keys(ROLES)
      .map((known) => `.${known}`)
      .join(', ')}, or a plain kebab-case name ('${stem}-${role.replaceAll('.', '-')}')`;
  }
  return null;
}

/** `gatehouse-files/file-role`: one report per file whose name breaks the convention. */
const fileRole = {
  meta: {
    type: 'suggestion',
    docs: { description: 'File names use a known role suffix or none (CODE_STYLE.md).' },
    schema: [],
    messages: { unknownRole: '{{problem}}' },
  },
  create(context) {
    const relativePath = context.filename
      .slice(context.cwd.length + 1)
      .split('\\')
      .join('/');
    return {
      Program(node) {
        const problem = fileRoleProblem(relativePath);
        if (problem !== null) context.report({ node, messageId: 'unknownRole', data: { problem } });
      },
    };
  },
};

export const fileRolesPlugin = { rules: { 'file-role': fileRole } };
