// Two projects: `unit` (colocated *.spec.ts, no I/O: runs with no PostgreSQL, Redis or browser) and
// `integration` (*.int-spec.ts against the real Postgres, Redis and Chromium that `npm test` provides through
// scripts/test.ts; each file creates its own database). Nest 12 and a few of its deps are ESM-only, so they
// are transformed to CJS by SWC like our own code.
const { readFileSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const { join } = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const aliases = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

/** The specs that run ESLint (and the Nx graph) on probe files: `npm run lint` runs them, `npm test` does not. */
const LINT_SPECS = [
  '<rootDir>/scripts/lint-rules\\.spec\\.ts$',
  '<rootDir>/scripts/lint-rules\\.int-spec\\.ts$',
];

const SWC = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true, tsx: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, react: { runtime: 'automatic' } },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};

/**
 * The files @gatehouse/testing re-exports ('./test-database', './mcp/streamable-http-upstream', ...). Its barrel is
 * compiled with SWC's lazy CommonJS imports for them, so each loads when a spec first uses one of its exports: a spec
 * that only needs a database does not load the MCP servers, the OAuth provider harness and the cross-tenant harness.
 */
const testingBarrelSources = [
  ...new Set(
    [
      ...readFileSync(join(__dirname, 'libs/testing/src/index.ts'), 'utf8').matchAll(/from '(\.\/[^']+)'/g),
    ].map((match) => match[1]),
  ),
];

const shared = {
  rootDir: __dirname,
  testEnvironment: 'node',
  // Compiles modules as vm.Script so a worker's later files reuse V8's compiled code of the modules earlier files
  // loaded (each file still runs them in its own context): libs/testing/src/shared-compile-runtime.cjs.
  runtime: '<rootDir>/libs/testing/src/shared-compile-runtime.cjs',
  transform: {
    // Patterns are tried in order: the testing barrel first.
    '/libs/testing/src/index\\.ts$': [
      '@swc/jest',
      { ...SWC, module: { type: 'commonjs', lazy: testingBarrelSources } },
    ],
    '^.+\\.(t|j|mj)sx?$': ['@swc/jest', SWC],
  },
  transformIgnorePatterns: [
    '/node_modules/(?!(?:[^/]+/node_modules/)*(?:@nestjs|cookie|content-disposition|mercurius|quick-lru|file-type|load-esm|uid|strtok3|token-types|@tokenizer|uint8array-extras|@borewit)/)',
  ],
  // `@/` is the dashboard's alias for apps/dashboard/src (its tsconfig.json; Next.js reads it there).
  moduleNameMapper: {
    ...aliases,
    '^@/(.*)$': '<rootDir>/apps/dashboard/src/$1',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/apps/dashboard/.next/'],
};

module.exports = {
  // One worker per core: more workers than cores only time-slice the same CPUs (and the services the tests
  // start), which made every file slower and timing-sensitive. JEST_MAX_WORKERS overrides it.
  maxWorkers: process.env.JEST_MAX_WORKERS || availableParallelism(),
  // Only honoured at the top level: database creation under parallel load can take seconds.
  testTimeout: 60_000,
  projects: [
    {
      ...shared,
      displayName: 'unit',
      testMatch: ['<rootDir>/{apps,libs,scripts,prisma}/**/*.spec.ts'],
      // Timing-ratio specs (*.timing.spec.ts) run on demand through jest.timing.config.js, never under load; the
      // specs that run ESLint belong to `npm run lint` (jest.lint.config.js).
      testPathIgnorePatterns: ['/node_modules/', '\\.timing\\.spec\\.ts$', ...LINT_SPECS],
    },
    {
      ...shared,
      displayName: 'integration',
      // Only the integration project needs the database roles and the migrated template every file's database is
      // copied from: unit tests run with no PostgreSQL at all.
      globalSetup: '<rootDir>/libs/testing/src/global-setup.ts',
      globalTeardown: '<rootDir>/libs/testing/src/global-teardown.ts',
      testMatch: ['<rootDir>/{apps,libs,scripts,prisma}/**/*.int-spec.ts'],
      testPathIgnorePatterns: ['/node_modules/', ...LINT_SPECS],
    },
  ],
};
