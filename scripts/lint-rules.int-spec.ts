// The rules that stand on the Nx project graph: Nx must see the imports between projects (without them
// `@nx/enforce-module-boundaries` checks tags against an empty graph and detects no cycle), a cycle between two
// projects fails lint, and the tag constraints of the dependency direction (docs/architecture/build.md) hold.
// The graph is computed fresh, as `npm run lint` does before it runs ESLint.
import { createProjectGraphAsync, type ProjectGraph } from '@nx/devkit';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findingsOf, WORKSPACE_ROOT } from './lint-rules.harness';

const BOUNDARIES = '@nx/enforce-module-boundaries';

// The one test-only loop the config tolerates (libs/testing builds databases with libs/db, whose own tests use
// them); see eslint.config.mjs.
const TOLERATED = new Set(['db>testing', 'testing>db']);

interface LibEdge {
  readonly from: string;
  readonly to: string;
}

let graph: ProjectGraph;
let aliasOf: Map<string, string>;

beforeAll(async () => {
  process.env.NX_DAEMON = 'false';
  process.env.NX_NO_CLOUD = 'true';
  graph = await createProjectGraphAsync({ exitOnError: false });
  const tsconfig = JSON.parse(readFileSync(join(WORKSPACE_ROOT, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: { paths: Record<string, string[]> };
  };
  aliasOf = new Map(
    Object.entries(tsconfig.compilerOptions.paths).flatMap(([alias, [target]]) => {
      const project = Object.values(graph.nodes).find((node) => target?.startsWith(`./${node.data.root}/`));
      return project === undefined ? [] : [[project.name, alias] as const];
    }),
  );
});

function libEdges(): LibEdge[] {
  return Object.entries(graph.dependencies).flatMap(([from, dependencies]) =>
    dependencies
      .filter((dependency) => dependency.type === 'static' && graph.nodes[dependency.target] !== undefined)
      .filter(
        (dependency) => graph.nodes[from]?.type === 'lib' && graph.nodes[dependency.target]?.type === 'lib',
      )
      .map((dependency) => ({ from, to: dependency.target })),
  );
}

describe('Nx sees the project graph', () => {
  it('infers the imports between projects from the source files', () => {
    const edges = libEdges().map((edge) => `${edge.from}>${edge.to}`);
    // Each of these is a real import today (commands declares its commands with the schemas of contracts,
    // activation takes its lists from contracts, definitions names tools through catalog, testing migrates with
    // db); none is declared by hand.
    expect(edges).toEqual(
      expect.arrayContaining([
        'commands>contracts',
        'activation>contracts',
        'definitions>catalog',
        'testing>db',
      ]),
    );
    const api = graph.dependencies['api']?.map((dependency) => dependency.target) ?? [];
    expect(api).toEqual(expect.arrayContaining(['db', 'commands', 'platform']));
  });

  it('fails lint on a cycle between two libs, for every edge between libs', async () => {
    const edges = libEdges().filter((edge) => !TOLERATED.has(`${edge.from}>${edge.to}`));
    expect(edges.length).toBeGreaterThan(0);
    for (const { from, to } of edges) {
      const alias = aliasOf.get(from);
      const root = graph.nodes[to]?.data.root;
      if (alias === undefined || root === undefined) throw new Error(`no alias or root for ${from} -> ${to}`);
      // A file in `to` importing `from` closes the loop from -> to -> from.
      const code = `import * as probe from '${alias}';\nexport const used = probe;\n`;
      const findings = await findingsOf(BOUNDARIES, `${root}/src/lint-probe.ts`, code);
      expect({ edge: `${to} -> ${from}`, findings }).toEqual({
        edge: `${to} -> ${from}`,
        findings: [expect.stringContaining(`Circular dependency between "${to}" and "${from}"`)],
      });
    }
  });

  it('tolerates only the test-only loop between db and testing', async () => {
    const code = "import * as probe from '@gatehouse/db';\nexport const used = probe;\n";
    expect(await findingsOf(BOUNDARIES, 'libs/testing/src/lint-probe.ts', code)).toEqual([]);
  });
});

describe('the dependency direction (docs/architecture/build.md)', () => {
  it.each([
    ['libs/catalog/src/lint-probe.ts', '@gatehouse/db'],
    ['libs/contracts/src/lint-probe.ts', '@gatehouse/crypto'],
    ['libs/commands/src/lint-probe.ts', '@gatehouse/crypto'],
    ['libs/definitions/src/lint-probe.ts', '@gatehouse/egress'],
  ])('refuses a pure lib (%s) an I/O lib (%s)', async (file, source) => {
    const code = `import * as probe from '${source}';\nexport const used = probe;\n`;
    // Each I/O lib here uses none of these pure libs, so the only finding is the direction (an import that
    // closed a cycle would be reported as the cycle instead).
    expect(await findingsOf(BOUNDARIES, file, code)).toEqual([
      expect.stringContaining('"type:lib-pure" can only depend'),
    ]);
  });

  it('refuses an app importing another app', async () => {
    const code =
      "import { createApiApp } from '../../api/src/create-api-app.js';\nexport const used = createApiApp;\n";
    expect(await findingsOf(BOUNDARIES, 'apps/worker/src/lint-probe.ts', code)).toHaveLength(1);
  });

  it('refuses the dashboard anything but contracts', async () => {
    const code = "import * as probe from '@gatehouse/commands';\nexport const used = probe;\n";
    expect(await findingsOf(BOUNDARIES, 'apps/dashboard/src/lint-probe.ts', code)).toEqual([
      expect.stringContaining('type:dashboard'),
    ]);
  });
});
