// Lint rules that hold the architecture in place: DESIGN.md's dependency direction through Nx tags, Prisma
// only inside libs/db, no `any`, no `console` outside scripts.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

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
      '@nx/enforce-module-boundaries': [
        'error',
        {
          banTransitiveDependencies: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:lib-pure', 'type:lib-io', 'type:testing'] },
            { sourceTag: 'type:dashboard', onlyDependOnLibsWithTags: ['scope:contracts'] },
            { sourceTag: 'type:lib-io', onlyDependOnLibsWithTags: ['type:lib-pure', 'type:lib-io', 'type:testing'] },
            { sourceTag: 'type:lib-pure', onlyDependOnLibsWithTags: ['type:lib-pure'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:lib-pure', 'type:lib-io'] },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@prisma/*', '**/generated/*'], message: 'Only libs/db talks to Prisma.' },
            { group: ['@gatehouse/*/src/*', '**/libs/*/src/*'], message: 'Import a lib only through its root.' },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/db/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Pure libs: no framework, no I/O, no process.env.
    files: ['libs/contracts/**/*.ts', 'libs/definitions/**/*.ts', 'libs/activation/**/*.ts', 'libs/catalog/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'process', message: 'Pure libs never read process state.' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@nestjs/*', 'fastify', 'pg', 'ioredis', 'bullmq', 'node:fs', 'node:net', 'node:http', 'undici'], message: 'Pure libs do no I/O.' },
          ],
        },
      ],
    },
  },
  {
    files: ['scripts/**/*.ts', 'bench/**/*.ts', '**/*.spec.ts', '**/*.int-spec.ts', 'libs/testing/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
];
