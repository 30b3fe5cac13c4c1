import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// The dashboard's bundler (Turbopack) reads this lib from source and resolves relative imports as written: a
// `./x.js` that names a `./x.ts` is "module not found" there (tsc and the CommonJS build accept both). So
// relative imports in this lib carry no extension.

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.ts$/.test(entry.name) && !/\.spec\.ts$/.test(entry.name) ? [full] : [];
  });
}

describe('libs/contracts source', () => {
  it('imports its own modules without a .js extension (the dashboard bundles it from source)', () => {
    const offending = sources(__dirname).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/from '(\.{1,2}\/[^']*\.js)'/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(offending).toEqual([]);
  });
});
