// The last step of `npm run lint`: the specs that feed each architecture rule a file that breaks it, against the
// real eslint.config.mjs (lint-rules.spec.ts) and the fresh Nx project graph (lint-rules.int-spec.ts). They run
// ESLint, so they belong with lint rather than `npm test` (jest.config.js leaves both out of its projects).
const { projects } = require('./jest.config.js');

const unit = projects.find((project) => project.displayName === 'unit');

module.exports = {
  ...unit,
  displayName: 'lint',
  testMatch: ['<rootDir>/scripts/lint-rules.spec.ts', '<rootDir>/scripts/lint-rules.int-spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  // Computing the project graph and linting probe files take longer than jest's 5 s default.
  testTimeout: 60_000,
};
