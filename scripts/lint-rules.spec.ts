// Each architecture rule (docs/architecture/build.md) that lint holds, fed a file that breaks it (and, where
// a zone is allowed what others are not, a file that must stay clean), against the real eslint.config.mjs.
// The rules that need the Nx project graph (module boundaries, cycles) are in lint-rules.int-spec.ts.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { API_LAYER_KNOWN_VIOLATIONS, API_LAYERS, PURE_LIBS } from '../eslint.config.mjs';
import { findingsOf, WORKSPACE_ROOT } from './lint-rules.harness';

const IMPORTS = '@typescript-eslint/no-restricted-imports';

const importing = (source: string): string =>
  `import * as probe from '${source}';\nexport const used = probe;\n`;

describe('pure libs import no framework, no I/O, no process', () => {
  const banned = [
    '@prisma/client',
    'fs',
    'node:fs',
    'fs/promises',
    'node:fs/promises',
    'node:child_process',
    'child_process',
    'node:https',
    'node:http',
    'node:net',
    'node:dns',
    'dns/promises',
    'node:os',
    'process',
    'node:process',
    'node:worker_threads',
    '@modelcontextprotocol/sdk/types.js',
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/sdk/server/mcp.js',
    '@nestjs/common',
    'fastify',
    '@fastify/cookie',
    'graphql',
    'react',
    'pg',
    'ioredis',
    'bullmq',
    'undici',
    'pino',
    '@gatehouse/db',
    '@gatehouse/testing',
  ];

  it('covers the five pure libs', () => {
    expect([...PURE_LIBS].sort()).toEqual(['activation', 'catalog', 'commands', 'contracts', 'definitions']);
  });

  describe.each(PURE_LIBS)('libs/%s', (lib) => {
    const file = `libs/${lib}/src/lint-probe.ts`;

    it.each(banned)('refuses an import of %s', async (source) => {
      expect(await findingsOf(IMPORTS, file, importing(source))).toHaveLength(1);
    });

    it.each(['@prisma/client', 'node:fs', '@modelcontextprotocol/sdk/types.js', '@nestjs/common'])(
      'refuses a type-only import of %s',
      async (source) => {
        const code = `import type * as probe from '${source}';\nexport type Used = typeof probe;\n`;
        expect(await findingsOf(IMPORTS, file, code)).toHaveLength(1);
      },
    );

    it('refuses a re-export and an import-equals of an I/O module', async () => {
      expect(await findingsOf(IMPORTS, file, "export { readFileSync } from 'node:fs';\n")).toHaveLength(1);
      expect(
        await findingsOf(IMPORTS, file, "import fs = require('fs');\nexport const used = fs;\n"),
      ).toHaveLength(1);
    });

    it('refuses the process global, however it is reached', async () => {
      expect(
        await findingsOf('no-restricted-globals', file, 'export const level = process.env.LOG_LEVEL;\n'),
      ).toEqual([expect.stringContaining('Pure libs')]);
      expect(
        await findingsOf(
          'no-restricted-properties',
          file,
          'export const level = globalThis.process.env.LOG_LEVEL;\n',
        ),
      ).toHaveLength(1);
    });

    it('refuses the global fetch', async () => {
      const code = "export const answer = (): Promise<Response> => fetch('https://example.test');\n";
      expect(await findingsOf('no-restricted-globals', file, code)).toHaveLength(1);
      expect(
        await findingsOf(
          'no-restricted-properties',
          file,
          "export const answer = globalThis.fetch('https://x.test');\n",
        ),
      ).toHaveLength(1);
    });

    it('refuses loading modules at run time', async () => {
      expect(
        await findingsOf(
          'no-restricted-syntax',
          file,
          "export const later = (): Promise<unknown> => import('node:fs');\n",
        ),
      ).toHaveLength(1);
      expect(
        await findingsOf('no-restricted-syntax', file, "export const now: unknown = require('node:fs');\n"),
      ).toHaveLength(1);
    });

    it.each(['node:crypto', 'node:util', 'zod', './sibling.js'])('allows %s', async (source) => {
      expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([]);
    });
  });

  it('lets a pure lib spec read a fixture file', async () => {
    expect(
      await findingsOf(IMPORTS, 'libs/definitions/src/lint-probe.spec.ts', importing('node:fs')),
    ).toEqual([]);
  });
});

describe('Prisma only inside libs/db', () => {
  it.each([
    'apps/api/src/lint-probe.ts',
    'libs/platform/src/lint-probe.ts',
    'apps/api/src/lint-probe.int-spec.ts',
  ])('refuses @prisma/client in %s', async (file) => {
    expect(await findingsOf(IMPORTS, file, importing('@prisma/client'))).toEqual([
      expect.stringContaining('Only libs/db talks to Prisma.'),
    ]);
  });

  it('allows it in libs/db', async () => {
    expect(await findingsOf(IMPORTS, 'libs/db/src/lint-probe.ts', importing('@prisma/client'))).toEqual([]);
  });
});

describe('SQL by hand only inside libs/db', () => {
  const SYNTAX = 'no-restricted-syntax';
  const rawSql = (member: string): string =>
    `import type { TenantTx } from '@gatehouse/db';\nexport const probe = (tx: TenantTx) => tx.${member}\`SELECT 1\`;\n`;

  it.each(['$queryRaw', '$executeRaw', '$queryRawUnsafe', '$executeRawUnsafe'])(
    'refuses %s in apps/api',
    async (member) => {
      expect(await findingsOf(SYNTAX, 'apps/api/src/leases/lint-probe.ts', rawSql(member))).toEqual([
        expect.stringContaining('SQL by hand lives in libs/db'),
      ]);
    },
  );

  it('allows it in libs/db and in test code', async () => {
    expect(await findingsOf(SYNTAX, 'libs/db/src/lint-probe.ts', rawSql('$queryRaw'))).toEqual([]);
    expect(
      await findingsOf(SYNTAX, 'apps/api/src/leases/lint-probe.int-spec.ts', rawSql('$queryRaw')),
    ).toEqual([]);
  });

  it('lets a use case call the Prisma model API', async () => {
    const modelCall =
      "import type { TenantTx } from '@gatehouse/db';\nexport const probe = (tx: TenantTx) => tx.workspace.findMany();\n";
    expect(await findingsOf(SYNTAX, 'apps/api/src/leases/lint-probe.ts', modelCall)).toEqual([]);
  });
});

describe('the client side of the MCP SDK only in libs/mcp-client', () => {
  const clients = [
    '@modelcontextprotocol/sdk/client/index.js',
    '@modelcontextprotocol/sdk/client/stdio.js',
    '@modelcontextprotocol/client',
  ];
  const outside = [
    'apps/api/src/lint-probe.ts',
    'apps/gateway/src/lint-probe.ts',
    'apps/worker/src/lint-probe.ts',
    'apps/dashboard/src/lint-probe.ts',
    'libs/egress/src/lint-probe.ts',
    'libs/oauth/src/lint-probe.ts',
    'libs/db/src/lint-probe.ts',
  ];

  it.each(outside.flatMap((file) => clients.map((source) => [file, source])))(
    'refuses in %s: %s',
    async (file, source) => {
      expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([
        expect.stringContaining('Only libs/mcp-client imports the client side'),
      ]);
    },
  );

  it.each(clients)('allows %s in libs/mcp-client', async (source) => {
    expect(await findingsOf(IMPORTS, 'libs/mcp-client/src/lint-probe.ts', importing(source))).toEqual([]);
  });

  it('allows the shared SDK modules in libs/mcp-client, and nowhere else outside the MCP apps', async () => {
    expect(
      await findingsOf(
        IMPORTS,
        'libs/mcp-client/src/lint-probe.ts',
        importing('@modelcontextprotocol/sdk/types.js'),
      ),
    ).toEqual([]);
    expect(
      await findingsOf(
        IMPORTS,
        'apps/worker/src/lint-probe.ts',
        importing('@modelcontextprotocol/sdk/types.js'),
      ),
    ).toEqual([expect.stringContaining('The MCP SDK stays in libs/mcp-client')]);
  });
});

describe('the server side of the MCP SDK only in the apps that serve MCP', () => {
  const servers = [
    '@modelcontextprotocol/sdk/server/mcp.js',
    '@modelcontextprotocol/sdk/server/streamableHttp.js',
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/server/stdio',
  ];

  it.each(
    [
      'libs/mcp-client/src/lint-probe.ts',
      'apps/worker/src/lint-probe.ts',
      'libs/coordination/src/lint-probe.ts',
    ].flatMap((file) => servers.map((source) => [file, source])),
  )('refuses in %s: %s', async (file, source) => {
    expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([
      expect.stringContaining('The server side of the MCP SDK belongs to the apps that serve MCP'),
    ]);
  });

  it.each(['apps/gateway/src/endpoint/lint-probe.ts', 'apps/gateway/src/lint-probe.ts'])(
    'refuses it in the gateway outside its adapter: %s',
    async (file) => {
      for (const source of [...servers, '@modelcontextprotocol/sdk/types.js']) {
        expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([
          expect.stringContaining('In apps/gateway the MCP SDK is imported only by src/mcp-server'),
        ]);
      }
    },
  );

  it.each(['apps/api/src/commands/lint-probe.ts', 'apps/api/src/lint-probe.ts'])(
    'refuses it in the API outside its adapter: %s',
    async (file) => {
      for (const source of [...servers, '@modelcontextprotocol/sdk/types.js']) {
        expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([
          expect.stringContaining('In apps/api the MCP SDK is imported only by src/mcp-admin'),
        ]);
      }
    },
  );

  it.each(['apps/gateway/src/mcp-server/lint-probe.ts', 'apps/api/src/mcp-admin/lint-probe.ts'])(
    'allows it in %s',
    async (file) => {
      for (const source of [...servers, '@modelcontextprotocol/sdk/types.js']) {
        expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([]);
      }
    },
  );

  it.each(['apps/cli/src/lint-probe.ts', 'apps/cli/src/connect/lint-probe.ts'])(
    'refuses it in the CLI outside its stdio bridge: %s',
    async (file) => {
      for (const source of servers) {
        expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([
          expect.stringContaining('The server side of the MCP SDK belongs to the apps that serve MCP'),
        ]);
      }
    },
  );

  it("allows it in the CLI's stdio bridge, and still not the client side there", async () => {
    const file = 'apps/cli/src/connect/mcp-server/lint-probe.ts';
    for (const source of [...servers, '@modelcontextprotocol/sdk/types.js']) {
      expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([]);
    }
    for (const source of ['@modelcontextprotocol/sdk/client/index.js', '@modelcontextprotocol/client']) {
      expect(await findingsOf(IMPORTS, file, importing(source))).toEqual([
        expect.stringContaining('Only libs/mcp-client imports the client side'),
      ]);
    }
  });

  it('does not mistake a server package name for the SDK server side', async () => {
    expect(
      await findingsOf(
        IMPORTS,
        'libs/mcp-client/src/lint-probe.ts',
        importing('@modelcontextprotocol/server-everything'),
      ),
    ).toEqual([]);
  });
});

describe('@gatehouse/testing only from test files', () => {
  it.each([
    'apps/api/src/lint-probe.ts',
    'apps/worker/src/lint-probe.ts',
    'apps/gateway/src/lint-probe.ts',
    'libs/db/src/lint-probe.ts',
    'libs/coordination/src/lint-probe.ts',
    'scripts/lint-probe.ts',
  ])('refuses it in %s', async (file) => {
    expect(await findingsOf(IMPORTS, file, importing('@gatehouse/testing'))).toEqual([
      expect.stringContaining('@gatehouse/testing is for test files only'),
    ]);
  });

  it.each([
    'apps/api/src/lint-probe.spec.ts',
    'apps/api/src/lint-probe.int-spec.ts',
    'libs/db/src/lint-probe.int-spec.ts',
    'libs/db/src/tenancy/lint-probe.test-fixture.ts',
    'apps/api/src/auth/testing/lint-probe.ts',
    'apps/dashboard/e2e/lint-probe.harness.ts',
    'libs/coordination/src/test-support/lint-probe.ts',
    'bench/lint-probe.bench.ts',
  ])('allows it in %s', async (file) => {
    expect(await findingsOf(IMPORTS, file, importing('@gatehouse/testing'))).toEqual([]);
  });

  it.each([
    './testing/identity-harness.js',
    './cross-tenant.test-fixture.js',
    '../test-support/recording-resolver.js',
  ])('refuses production code importing the test helper %s', async (source) => {
    expect(await findingsOf(IMPORTS, 'apps/api/src/auth/lint-probe.ts', importing(source))).toEqual([
      expect.stringContaining('Production code does not import test helpers.'),
    ]);
  });

  it('lets test code use both sides of the MCP SDK', async () => {
    for (const source of [
      '@modelcontextprotocol/sdk/client/index.js',
      '@modelcontextprotocol/sdk/server/index.js',
    ]) {
      expect(await findingsOf(IMPORTS, 'apps/gateway/src/lint-probe.int-spec.ts', importing(source))).toEqual(
        [],
      );
      expect(await findingsOf(IMPORTS, 'libs/testing/src/lint-probe.ts', importing(source))).toEqual([]);
    }
  });
});

describe('libs only through their roots', () => {
  it.each([
    'apps/api/src/lint-probe.ts',
    'libs/db/src/lint-probe.ts',
    'libs/catalog/src/lint-probe.ts',
    'apps/api/src/lint-probe.spec.ts',
  ])('refuses a deep import in %s', async (file) => {
    expect(await findingsOf(IMPORTS, file, importing('@gatehouse/contracts/src/queues'))).toEqual([
      expect.stringContaining('Import a lib only through its root.'),
    ]);
  });
});

const API_SOURCE = resolve(WORKSPACE_ROOT, 'apps/api/src');

/** The TypeScript files under a folder that the layer rule judges (eslint.config.mjs leaves test code out). */
function productionFilesUnder(folder: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'testing' && entry.name !== 'test-support')
        files.push(...productionFilesUnder(path));
    } else if (/\.ts$/.test(entry.name) && !TEST_FILE_NAME.test(entry.name)) files.push(path);
  }
  return files;
}

const TEST_FILE_NAME = /\.(?:spec|int-spec|test-fixture|fixture|fixtures|harness|test-helper)\.ts$/;

describe('apps/api imports only downwards through its layers', () => {
  const LAYERS = 'gatehouse/api-layers';
  const at = (path: string): string => `apps/api/src/${path}`;

  it('refuses a feature importing another feature', async () => {
    expect(
      await findingsOf(LAYERS, at('leases/lint-probe.ts'), importing('../catalog/catalog-version.js')),
    ).toEqual([
      expect.stringContaining('leases may not import catalog: one feature does not import another'),
    ]);
    expect(
      await findingsOf(
        LAYERS,
        at('tenancy/lint-probe.ts'),
        importing('../workspaces/create-workspace.use-case.js'),
      ),
    ).toHaveLength(1);
  });

  it.each([
    [
      'auth/lint-probe.ts',
      '../approvals/approval.views.js',
      'auth (foundation) may not import approvals (features)',
    ],
    [
      'commands/lint-probe.ts',
      '../effective-view/effective-views.js',
      'commands (foundation) may not import effective-view (core)',
    ],
    [
      'effective-view/lint-probe.ts',
      '../leases/lease-caller.js',
      'effective-view (core) may not import leases (features)',
    ],
    [
      'leases/lint-probe.ts',
      '../graphql/register-graphql.js',
      'leases (features) may not import graphql (surfaces)',
    ],
    [
      'audit/lint-probe.ts',
      '../admin-surfaces/registry/command-handler.registry.js',
      'audit (foundation) may not import admin-surfaces (surfaces)',
    ],
    [
      'infrastructure/lint-probe.ts',
      '../leases/lease-caller.js',
      'infrastructure (foundation) may not import leases (features)',
    ],
  ])('refuses an upward import: %s of %s', async (file, source, message) => {
    expect(await findingsOf(LAYERS, at(file), importing(source))).toEqual([expect.stringContaining(message)]);
  });

  it('refuses a re-export, a type-only import and a dynamic import across features', async () => {
    const file = at('oauth/lint-probe.ts');
    expect(
      await findingsOf(LAYERS, file, "export { CatalogReader } from '../catalog/catalog-reader.js';\n"),
    ).toHaveLength(1);
    expect(
      await findingsOf(
        LAYERS,
        file,
        "import type { X } from '../catalog/catalog-reader.js';\nexport type Y = X;\n",
      ),
    ).toHaveLength(1);
    expect(
      await findingsOf(
        LAYERS,
        file,
        "export const later = (): Promise<unknown> => import('../catalog/catalog-reader.js');\n",
      ),
    ).toHaveLength(1);
  });

  it('refuses a folder that is in no layer', async () => {
    expect(
      await findingsOf(LAYERS, at('new-feature/lint-probe.ts'), importing('../auth/principal.js')),
    ).toEqual([expect.stringContaining('new-feature is in no layer of apps/api')]);
  });

  it.each([
    ['leases/lint-probe.ts', './lease-caller.js'],
    ['leases/lint-probe.ts', '../auth/principal.js'],
    ['leases/lint-probe.ts', '../commands/command-handler.js'],
    ['leases/lint-probe.ts', '../commands/registry/handles-command.decorator.js'],
    ['leases/lint-probe.ts', '../effective-view/effective-views.js'],
    ['host-policy/lint-probe.ts', '../effective-view/effective-views.js'],
    ['auth/lint-probe.ts', '../audit/append-audit-event.js'],
    ['graphql/lint-probe.ts', '../admin-surfaces/rest/register-command-routes.js'],
    ['mcp-admin/lint-probe.ts', '../leases/lease-caller.js'],
    ['lint-probe.ts', './leases/leases.module.js'],
    ['infrastructure/command-deps.module.ts', '../admission/admission.log.js'],
    ['leases/lint-probe.ts', '@gatehouse/contracts'],
  ])('allows %s to import %s', async (file, source) => {
    expect(await findingsOf(LAYERS, at(file), importing(source))).toEqual([]);
  });

  it('lets test code reach across features', async () => {
    expect(
      await findingsOf(
        LAYERS,
        at('leases/lint-probe.int-spec.ts'),
        importing('../catalog/catalog-version.js'),
      ),
    ).toEqual([]);
  });

  it('places every folder of apps/api/src in a layer', () => {
    const members = new Set(API_LAYERS.flatMap((layer) => layer.members));
    const folders = readdirSync(resolve(WORKSPACE_ROOT, 'apps/api/src'), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    expect(folders.filter((folder) => !members.has(folder))).toEqual([]);
  });

  it('excuses only pairs the layers would refuse, each with its reason', () => {
    const placeOf = (member: string): { index: number; peers: boolean } => {
      const index = API_LAYERS.findIndex((layer) => layer.members.includes(member));
      expect(index).toBeGreaterThanOrEqual(0);
      return { index, peers: API_LAYERS[index]!.peers };
    };
    for (const [from, to, why] of API_LAYER_KNOWN_VIOLATIONS) {
      const source = placeOf(from);
      const target = placeOf(to);
      expect(target.index > source.index || (target.index === source.index && !source.peers)).toBe(true);
      expect(why.length).toBeGreaterThan(0);
    }
    const pairs = API_LAYER_KNOWN_VIOLATIONS.map(([from, to]) => `${from}>${to}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('excuses no pair both ways: two features never import each other', () => {
    const pairs = new Set(API_LAYER_KNOWN_VIOLATIONS.map(([from, to]) => `${from}>${to}`));
    const bothWays = API_LAYER_KNOWN_VIOLATIONS.filter(([from, to]) => pairs.has(`${to}>${from}`));
    expect(bothWays).toEqual([]);
  });

  it('excuses only pairs production code still imports (a mended pair leaves the list)', () => {
    const productionImports = new Set<string>();
    for (const from of new Set(API_LAYER_KNOWN_VIOLATIONS.map(([member]) => member))) {
      for (const file of productionFilesUnder(resolve(API_SOURCE, from))) {
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/\bfrom '(\.{1,2}\/[^']+)'/g)) {
          const target = relative(API_SOURCE, resolve(dirname(file), specifier as string)).split(sep)[0];
          if (target !== from) productionImports.add(`${from}>${target}`);
        }
      }
    }
    const stale = API_LAYER_KNOWN_VIOLATIONS.filter(([from, to]) => !productionImports.has(`${from}>${to}`));
    expect(stale).toEqual([]);
  });
});

describe('file names carry a known role or none (CODE_STYLE.md)', () => {
  const FILE_ROLE = 'gatehouse-files/file-role';
  const code = 'export const probe = 1;\n';

  it.each([
    'libs/catalog/src/lint-probe.wibble.ts',
    'libs/catalog/src/lint-probe.wibble.spec.ts',
    'apps/dashboard/src/ui/lint-probe.widget.tsx',
    'apps/api/src/leases/lint-probe.problems.ts',
    'apps/cli/src/LintProbe.ts',
  ])('refuses %s', async (path) => {
    expect(await findingsOf(FILE_ROLE, path, code)).toEqual([expect.stringContaining('CODE_STYLE.md')]);
  });

  it.each([
    'libs/catalog/src/lint-probe.guard.ts',
    'libs/catalog/src/lint-probe.guard.spec.ts',
    'apps/api/src/leases/lint-probe.use-case.ts',
    'apps/dashboard/src/ui/lint-probe.tsx',
    'libs/definitions/src/lint-probe-decoder.ts',
    'apps/api/src/admission/admission-log.ts',
  ])('takes %s (a role or a plain name)', async (path) => {
    expect(await findingsOf(FILE_ROLE, path, code)).toEqual([]);
  });
});
