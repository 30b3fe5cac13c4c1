import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONFIG_MARKERS,
  DECISIONS_MARKERS,
  renderConfigSection,
  renderDecisionsIndex,
  renderReadme,
  replaceBetweenMarkers,
} from './config-table';

const root = join(__dirname, '..');

describe('README generated sections', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  /** The text between two markers, as the generator writes it (one newline after start, one before end). */
  function between(markers: { start: string; end: string }): string | undefined {
    const start = readme.indexOf(markers.start);
    const end = readme.indexOf(markers.end);
    return start < 0 || end < 0 ? undefined : readme.slice(start + markers.start.length + 1, end - 1);
  }

  it('has a configuration table matching the config schemas (run `npm run docs:config`)', () => {
    expect(between(CONFIG_MARKERS)).toBe(renderConfigSection());
  });

  it('has a decisions index matching docs/decisions (run `npm run docs:config`)', () => {
    expect(between(DECISIONS_MARKERS)).toBe(renderDecisionsIndex(join(root, 'docs', 'decisions')));
    expect(renderReadme(readme, root)).toEqual({ ok: true, text: readme });
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
