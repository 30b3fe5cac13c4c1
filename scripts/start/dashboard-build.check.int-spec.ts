import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dashboardBuildState } from './dashboard-build.check';

describe('dashboardBuildState', () => {
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'gatehouse-dashboard-build-'));
    mkdirSync(join(root, 'apps/dashboard/src/app'), { recursive: true });
    writeFileSync(join(root, 'apps/dashboard/src/app/page.tsx'), 'page');
    writeFileSync(join(root, 'package-lock.json'), '{}');
  });

  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  function setTimes(path: string, seconds: number): void {
    utimesSync(path, seconds, seconds);
  }

  function build(at: number): void {
    mkdirSync(join(root, 'apps/dashboard/.next'), { recursive: true });
    writeFileSync(join(root, 'apps/dashboard/.next/BUILD_ID'), 'id');
    setTimes(join(root, 'apps/dashboard/.next/BUILD_ID'), at);
  }

  function ageSources(at: number): void {
    for (const path of [
      'apps/dashboard/src/app/page.tsx',
      'apps/dashboard/src/app',
      'apps/dashboard/src',
      'package-lock.json',
    ]) {
      setTimes(join(root, path), at);
    }
  }

  it('is stale when there is no build', () => {
    expect(dashboardBuildState(root)).toEqual({ stale: true, reason: 'missing' });
  });

  it('is fresh when the build is newer than every input', () => {
    ageSources(1_000);
    build(2_000);
    expect(dashboardBuildState(root)).toEqual({ stale: false });
  });

  it('is stale when a source file changed after the build', () => {
    ageSources(1_000);
    build(2_000);
    setTimes(join(root, 'apps/dashboard/src/app/page.tsx'), 3_000);
    expect(dashboardBuildState(root)).toEqual({ stale: true, reason: 'sources_changed' });
  });

  it('is stale when the dependencies changed after the build', () => {
    ageSources(1_000);
    build(2_000);
    setTimes(join(root, 'package-lock.json'), 3_000);
    expect(dashboardBuildState(root)).toEqual({ stale: true, reason: 'sources_changed' });
  });
});
