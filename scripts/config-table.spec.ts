import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONFIG_MARKERS,
  CONFIGURATION_DOC,
  DECISIONS_INDEX_DOC,
  DECISIONS_MARKERS,
  generatedSections,
  renderConfigSection,
  renderDecisionsIndex,
  replaceBetweenMarkers,
} from './config-table';

const root = join(__dirname, '..');

describe('generated sections of the docs', () => {
  /** The text between two markers, as the generator writes it (one newline after start, one before end). */
  function between(file: string, markers: { start: string; end: string }): string | undefined {
    const text = readFileSync(join(root, file), 'utf8');
    const start = text.indexOf(markers.start);
    const end = text.indexOf(markers.end);
    return start < 0 || end < 0 ? undefined : text.slice(start + markers.start.length + 1, end - 1);
  }

  it('has a configuration table matching the config schemas (run `npm run docs:config`)', () => {
    expect(between(CONFIGURATION_DOC, CONFIG_MARKERS)).toBe(renderConfigSection());
  });

  it('has a decisions index matching docs/decisions (run `npm run docs:config`)', () => {
    expect(between(DECISIONS_INDEX_DOC, DECISIONS_MARKERS)).toBe(
      renderDecisionsIndex(join(root, 'docs', 'decisions')),
    );
  });

  it('leaves every generated file exactly as the generator would write it', () => {
    for (const section of generatedSections(root)) {
      const text = readFileSync(join(root, section.file), 'utf8');
      expect(replaceBetweenMarkers(text, section.markers, section.content)).toEqual({ ok: true, text });
    }
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
