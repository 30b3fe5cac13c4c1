// Children write chunks, not lines: a chunk may end mid-line or hold several lines. The prefixer buffers the
// partial tail so every printed line carries exactly one `[name]` prefix and lines of two apps never interleave.

const ANSI_COLORS = [36, 35, 33, 32, 34, 31, 96, 95] as const;
const ANSI_RESET = '\u001b[0m';

export type PrefixStyle = { color: boolean };

/** `[name]` padded to `width`, in the name's stable color when colors are on. */
export function formatPrefix(name: string, index: number, width: number, style: PrefixStyle): string {
  const label = `[${name}]`.padEnd(width + 2);
  if (!style.color) return label;
  const code = ANSI_COLORS[index % ANSI_COLORS.length] ?? ANSI_COLORS[0];
  return `\u001b[${code}m${label}${ANSI_RESET}`;
}

/** Colors only on a terminal, and never when NO_COLOR is set (https://no-color.org). */
export function shouldUseColor(isTty: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false;
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '' && env['FORCE_COLOR'] !== '0')
    return true;
  return isTty;
}

export type LinePrefixer = {
  /** Feeds a chunk of output; writes every complete line it now holds. */
  push(chunk: string): void;
  /** Writes the unterminated tail, if any (call when the stream ends). */
  flush(): void;
};

export function createLinePrefixer(prefix: string, write: (line: string) => void): LinePrefixer {
  let tail = '';
  return {
    push(chunk) {
      const text = tail + chunk;
      const lines = text.split('\n');
      tail = lines.pop() ?? '';
      for (const line of lines) write(`${prefix} ${line.replace(/\r$/, '')}\n`);
    },
    flush() {
      if (tail.length > 0) write(`${prefix} ${tail.replace(/\r$/, '')}\n`);
      tail = '';
    },
  };
}
