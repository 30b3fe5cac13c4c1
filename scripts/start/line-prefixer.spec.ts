import { createLinePrefixer, formatPrefix, shouldUseColor } from './line-prefixer';

describe('createLinePrefixer', () => {
  function collect(): { lines: string[]; write: (line: string) => void } {
    const lines: string[] = [];
    return { lines, write: (line) => lines.push(line) };
  }

  it('prefixes every complete line of a chunk', () => {
    const out = collect();
    const prefixer = createLinePrefixer('[api]', out.write);
    prefixer.push('one\ntwo\n');
    expect(out.lines).toEqual(['[api] one\n', '[api] two\n']);
  });

  it('holds a partial line until the rest arrives', () => {
    const out = collect();
    const prefixer = createLinePrefixer('[api]', out.write);
    prefixer.push('{"level":30,');
    expect(out.lines).toEqual([]);
    prefixer.push('"msg":"up"}\nnext');
    expect(out.lines).toEqual(['[api] {"level":30,"msg":"up"}\n']);
    prefixer.flush();
    expect(out.lines).toEqual(['[api] {"level":30,"msg":"up"}\n', '[api] next\n']);
  });

  it('drops the carriage return of CRLF lines and writes nothing on an empty flush', () => {
    const out = collect();
    const prefixer = createLinePrefixer('[w]', out.write);
    prefixer.push('a\r\n');
    prefixer.flush();
    expect(out.lines).toEqual(['[w] a\n']);
  });
});

describe('formatPrefix', () => {
  it('pads names to a common width without colors', () => {
    expect(formatPrefix('api', 0, 9, { color: false })).toBe('[api]      ');
    expect(formatPrefix('dashboard', 3, 9, { color: false })).toBe('[dashboard]');
  });

  it('wraps the label in a stable ANSI color per index', () => {
    const first = formatPrefix('api', 0, 3, { color: true });
    expect(first).toBe('\u001b[36m[api]\u001b[0m');
    expect(formatPrefix('api', 8, 3, { color: true })).toBe(first);
    expect(formatPrefix('api', 1, 3, { color: true })).not.toBe(first);
  });
});

describe('shouldUseColor', () => {
  it('follows the terminal unless NO_COLOR or FORCE_COLOR say otherwise', () => {
    expect(shouldUseColor(true, {})).toBe(true);
    expect(shouldUseColor(false, {})).toBe(false);
    expect(shouldUseColor(true, { NO_COLOR: '1' })).toBe(false);
    expect(shouldUseColor(false, { FORCE_COLOR: '1' })).toBe(true);
    expect(shouldUseColor(false, { FORCE_COLOR: '0' })).toBe(false);
  });
});
