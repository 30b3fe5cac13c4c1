#!/usr/bin/env node
'use strict';
// The operator's CLI (`npx --no-install gatehouse admin ...`). It runs the built output: run `npm run build`
// after changing the sources.
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const entry = join(__dirname, '..', 'dist', 'apps', 'api', 'src', 'cli', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('gatehouse: not built yet; run `npm run build` first\n');
  process.exit(2);
}
require(entry)
  .main()
  .catch((error) => {
    process.stderr.write(`gatehouse: failed: ${error instanceof Error ? error.name : 'error'}\n`);
    process.exitCode = 1;
  });
