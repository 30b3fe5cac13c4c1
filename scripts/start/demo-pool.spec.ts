import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_EVERYTHING_PACKAGE, DEMO_EVERYTHING_VERSION, DEMO_STDIO_COMMAND } from './demo-pool';

describe('the demo pool', () => {
  it('pins the exact version package.json installs, so npx runs the installed copy offline', () => {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
      dependencies?: Record<string, string>;
    };
    const pinned =
      manifest.devDependencies?.[DEMO_EVERYTHING_PACKAGE] ?? manifest.dependencies?.[DEMO_EVERYTHING_PACKAGE];
    expect(pinned).toBe(DEMO_EVERYTHING_VERSION);
    expect(DEMO_STDIO_COMMAND).toEqual([
      'npx',
      '-y',
      `${DEMO_EVERYTHING_PACKAGE}@${DEMO_EVERYTHING_VERSION}`,
    ]);
  });
});
