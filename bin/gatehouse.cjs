#!/usr/bin/env node
'use strict';
// `gatehouse admin ...` is the operator's CLI (apps/api, on the database); every other command is the user's
// (apps/cli, over the API's REST surface and the gateway). It runs the built output: run `npm run build` after
// changing the sources.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const operator = process.argv[2] === 'admin';
const entry = join(
  __dirname,
  '..',
  'dist',
  'apps',
  operator ? 'api' : 'cli',
  'src',
  operator ? 'cli' : '',
  'main.js',
);
if (!existsSync(entry)) {
  process.stderr.write('gatehouse: not built yet; run `npm run build` first\n');
  process.exit(2);
}
// `gatehouse admin --help` is the operator CLI's own usage (its runner reads `--help` before `admin`).
const adminHelp = operator && (process.argv[3] === undefined || ['--help', '-h'].includes(process.argv[3]));
require(entry)
  .main(adminHelp ? process.argv.slice(3) : undefined)
  .catch((error) => {
    process.stderr.write(`gatehouse: failed: ${error instanceof Error ? error.name : 'error'}\n`);
    process.exitCode = 1;
  });
