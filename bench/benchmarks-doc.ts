import type { BenchSection } from './bench-context';

// docs/benchmarks.md: rendered whole by a full `npm run bench`, or merged when only some benches ran
// (`node dist/bench/run.js auth-throughput`), so a run of one bench never rewrites another bench's numbers.

export interface BenchOutcome {
  readonly name: string;
  readonly section?: BenchSection;
  readonly error?: string;
}

/** Where and how the numbers were taken. */
export interface RunNote {
  /** Markdown: the command in backticks, then its settings. */
  readonly command: string;
  readonly date: string;
  readonly machine: string;
}

// A hand-written `### History` block at the end of a section (before/after numbers of a change) survives every
// rerun of its bench, full or merged.
const HISTORY_HEADING = '### History';

// Under each heading, so a section is found by its bench's name even when the title changed or the bench failed
// (a failed bench has no title to look for).
const anchorOf = (name: string) => `<!-- bench: ${name} -->`;

function ratioRow(o: BenchOutcome): string {
  return o.section
    ? `| ${o.name} | ${o.section.ratio.label} | **${o.section.ratio.value.toFixed(3)}** |`
    : `| ${o.name} | not run | ${o.error ?? ''} |`;
}

function sectionLines(o: BenchOutcome, history: readonly string[], note?: RunNote): string[] {
  const lines = [`## ${o.section?.title ?? o.name}`, '', anchorOf(o.name), ''];
  if (note) {
    lines.push(`Last run on its own: ${note.command}, ${note.date}. Machine: ${note.machine}.`, '');
  }
  if (!o.section) {
    lines.push(`Not run: ${o.error ?? 'unknown error'}`);
  } else {
    lines.push(o.section.method, '', '| measure | value |', '|---|---|');
    for (const row of o.section.rows) lines.push(`| ${row.label} | ${row.value} |`);
    lines.push(`| **${o.section.ratio.label}** | **${o.section.ratio.value.toFixed(3)}** |`);
  }
  if (history.length > 0) lines.push('', ...history);
  return lines;
}

/** The whole document, from a run of every bench; History blocks are taken over from `existing`. */
export function renderBenchmarks(
  outcomes: readonly BenchOutcome[],
  note: RunNote,
  existing: string | null = null,
): string {
  const old = existing === null ? [] : existing.split('\n');
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/run.ts); do not edit by hand (except a `### History` block at the end of a',
    "bench's section, which reruns keep). Each bench measures its baseline in the same run, so ratios compare like",
    'with like on whatever machine ran them; absolute numbers are only for that machine.',
    '',
    `- Command: ${note.command}`,
    `- Date: ${note.date}`,
    `- Machine: ${note.machine}`,
    '',
    '## Ratios',
    '',
    '| bench | ratio | value |',
    '|---|---|---|',
    ...outcomes.map(ratioRow),
  ];
  for (const o of outcomes) lines.push('', ...sectionLines(o, historyOf(old, o)));
  return `${lines.join('\n')}\n`;
}

/**
 * `existing` with the ratio row and the section of each outcome replaced (or appended), every other bench's row
 * and section left as they were. A section is found by its heading: the bench's title or its name.
 */
export function mergeBenchmarks(existing: string, outcomes: readonly BenchOutcome[], note: RunNote): string {
  let lines = existing.replace(/\n+$/, '').split('\n');
  for (const o of outcomes) {
    lines = replaceRatioRow(lines, o);
    lines = replaceSection(lines, o, note);
  }
  return `${lines.join('\n')}\n`;
}

function replaceRatioRow(lines: string[], o: BenchOutcome): string[] {
  const start = lines.indexOf('## Ratios');
  if (start < 0) return lines;
  let last = -1;
  for (let i = start + 1; i < lines.length && !lines[i]?.startsWith('## '); i += 1) {
    const line = lines[i] ?? '';
    if (!line.startsWith('|')) continue;
    last = i;
    if (line.split('|')[1]?.trim() === o.name) {
      return [...lines.slice(0, i), ratioRow(o), ...lines.slice(i + 1)];
    }
  }
  return last < 0 ? lines : [...lines.slice(0, last + 1), ratioRow(o), ...lines.slice(last + 1)];
}

function sectionStart(lines: readonly string[], o: BenchOutcome): number {
  const anchor = lines.findIndex((line) => line.trim() === anchorOf(o.name));
  if (anchor >= 0) {
    for (let i = anchor; i >= 0; i -= 1) if (lines[i]?.startsWith('## ')) return i;
  }
  const headings = new Set([`## ${o.name}`, ...(o.section ? [`## ${o.section.title}`] : [])]);
  return lines.findIndex((line) => headings.has(line.trim()));
}

/** [start, end) of the bench's section, or null when the document has none. */
function sectionRange(lines: readonly string[], o: BenchOutcome): [number, number] | null {
  const start = sectionStart(lines, o);
  if (start < 0) return null;
  const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  return [start, end < 0 ? lines.length : end];
}

function historyOf(lines: readonly string[], o: BenchOutcome): string[] {
  const range = sectionRange(lines, o);
  if (range === null) return [];
  const section = lines.slice(range[0], range[1]);
  const at = section.findIndex((line) => line.trim() === HISTORY_HEADING);
  return at < 0 ? [] : trimBlankEnd(section.slice(at));
}

function replaceSection(lines: string[], o: BenchOutcome, note: RunNote): string[] {
  const fresh = sectionLines(o, historyOf(lines, o), note);
  const range = sectionRange(lines, o);
  if (range === null) return [...lines, '', ...fresh];
  const [start, end] = range;
  const tail = end < lines.length ? [''] : [];
  return [...lines.slice(0, start), ...fresh, ...tail, ...lines.slice(end)];
}

function trimBlankEnd(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return lines.slice(0, end);
}
