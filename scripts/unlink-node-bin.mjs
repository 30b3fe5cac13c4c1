// Runs after `npm install` / `npm ci` (the root postinstall, once every dependency is linked).
// The `node` devDependency is Node 22 for the conformance suite only (decision 0090), which calls it by path. The
// package also links node_modules/.bin/node, and npm puts node_modules/.bin first on PATH for every script: the
// tests, `npm start` and CI would run on that binary instead of the machine's Node, and a stdio child spawned from
// process.execPath would be a binary inside the checkout that an unprivileged runAs user cannot reach. Remove
// that one link, and only when it is the `node` package's.
// The link was on PATH while the dependencies' own install scripts ran, so argon2's node-gyp-build kept its
// prebuilt binary, which Node 20 loads and crashes on (SIGSEGV in every test that hashes a password); under the
// machine's Node it builds from source instead, as it did before the link existed. Rebuild it once the link is
// gone.
import { spawnSync } from 'node:child_process';
import { lstatSync, readlinkSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const link = join(process.cwd(), 'node_modules', '.bin', 'node');
const ownedBy = join(process.cwd(), 'node_modules', 'node') + '/';

function removeNodeLink() {
  try {
    if (!lstatSync(link).isSymbolicLink()) return false;
    if (!resolve(dirname(link), readlinkSync(link)).startsWith(ownedBy)) return false;
    unlinkSync(link);
    return true;
  } catch (error) {
    if (error.code === 'ENOENT') return false;
    throw error;
  }
}

if (removeNodeLink()) {
  const rebuilt = spawnSync('npm', ['rebuild', 'argon2'], { stdio: 'inherit' });
  if (rebuilt.status !== 0) process.exit(rebuilt.status ?? 1);
}
