import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_MARKERS, renderConfigSection, renderReadme, replaceBetweenMarkers } from './config-table';

const root = join(__dirname, '..');

describe('README generated sections', () => {
  it('are up to date with the config schemas and docs/decisions (run `npm run docs:config`)', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const rendered = renderReadme(readme, root);
    expect(rendered.ok).toBe(true);
    if (!rendered.ok) return;
    // A plain equality would print two whole READMEs; compare the generated parts first for a readable diff.
    expect(readme).toContain(renderConfigSection());
    expect(rendered.text).toBe(readme);
  });

  it('lists every app variable with its secret flag', () => {
    const section = renderConfigSection();
    for (const variable of [
      '`API_PORT`',
      '`DATABASE_URL`',
      '`REDIS_URL`',
      '`DASHBOARD_PORT`',
      '`GATEHOUSE_KEYS`',
    ]) {
      expect(section).toContain(variable);
    }
    expect(section).toMatch(/\| `DATABASE_URL` \|[^\n]*\| yes \|/);
    expect(section).toMatch(/\| `API_PORT` \|[^\n]*\| {2}\|/);
  });
});

describe('replaceBetweenMarkers', () => {
  it('replaces only what lies between the markers', () => {
    const text = `before\n${CONFIG_MARKERS.start}\nold\n${CONFIG_MARKERS.end}\nafter\n`;
    expect(replaceBetweenMarkers(text, CONFIG_MARKERS, 'new')).toEqual({
      ok: true,
      text: `before\n${CONFIG_MARKERS.start}\nnew\n${CONFIG_MARKERS.end}\nafter\n`,
    });
  });

  it('reports missing markers instead of writing somewhere else', () => {
    expect(replaceBetweenMarkers('no markers here', CONFIG_MARKERS, 'x')).toEqual({
      ok: false,
      reason: 'markers_missing',
      markers: CONFIG_MARKERS,
    });
  });
});
