// Runs after `npm install` / `npm ci` (the root postinstall, once every dependency is linked).
// The `node` devDependency is Node 22 for the conformance suite only (decision 0090), which calls it by path. The
// package also links node_modules/.bin/node, and npm puts node_modules/.bin first on PATH for every script: the
// tests, `npm start` and CI would run on that binary instead of the machine's Node, and a stdio child spawned from
// process.execPath would be a binary inside the checkout that an unprivileged runAs user cannot reach. Remove
// that one link, and only when it is the `node` package's.
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const link = join(process.cwd(), 'node_modules', '.bin', 'node');
const ownedBy = join(process.cwd(), 'node_modules', 'node') + '/';

try {
  if (lstatSync(link).isSymbolicLink() && resolve(dirname(link), readlinkSync(link)).startsWith(ownedBy))
    unlinkSync(link);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
}
