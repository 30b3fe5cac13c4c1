// `npm run test:timing`: the specs that assert a timing ratio (linear code's time per character stays flat as
// its input grows tenfold). Other processes' load decides such a ratio, so `npm test` leaves them out (the unit
// project ignores *.timing.spec.ts); run them on a quiet machine, one file at a time.
const { projects } = require('./jest.config.js');

const unit = projects.find((project) => project.displayName === 'unit');

module.exports = {
  ...unit,
  displayName: 'timing',
  testMatch: ['<rootDir>/{apps,libs,scripts,prisma}/**/*.timing.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
