// Compiles the server-side TypeScript (apps, libs, scripts, bench, prisma) to CommonJS under dist/ with SWC.
// SWC keeps decorator metadata (NestJS DI needs it) and rewrites the @gatehouse/* path aliases to relative
// requires, so the output runs on plain `node`. Only changed files are recompiled.
import { transformFile } from '@swc/core';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { readFileSync } from 'node:fs';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const outDir = join(root, 'dist');
// apps/dashboard is built by Next.js; only its config schema is compiled here (npm start and the README generator read it).
const roots = ['apps/api/src', 'apps/worker/src', 'apps/gateway/src', 'apps/cli/src', 'apps/dashboard/src/config', 'libs', 'scripts', 'bench', 'prisma'];
const skip = /(\.spec\.ts|\.int-spec\.ts|\.d\.ts)$/;
const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));

async function* walk(dir) {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === 'node_modules' || entry.name === 'migrations') continue;
      yield* walk(full);
    } else if (/\.tsx?$/.test(entry.name) && !skip.test(entry.name)) {
      yield full;
    }
  }
}

async function compile(file) {
  const target = join(outDir, relative(root, file)).replace(/\.tsx?$/, '.js');
  const [src, out] = await Promise.all([stat(file), stat(target).catch(() => null)]);
  if (out && out.mtimeMs >= src.mtimeMs) return false;
  const { code, map } = await transformFile(file, {
    swcrc: false,
    sourceMaps: true,
    jsc: {
      parser: { syntax: 'typescript', decorators: true, tsx: file.endsWith('.tsx') },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
      baseUrl: root,
      paths: compilerOptions.paths,
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  });
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map`);
  if (map) await writeFile(`${target}.map`, map);
  return true;
}

const files = [];
for (const r of roots) for await (const f of walk(join(root, r))) files.push(f);
let changed = 0;
for (let i = 0; i < files.length; i += 32) {
  const results = await Promise.all(files.slice(i, i + 32).map(compile));
  changed += results.filter(Boolean).length;
}
process.stdout.write(`build: ${changed} of ${files.length} files compiled to dist/\n`);
