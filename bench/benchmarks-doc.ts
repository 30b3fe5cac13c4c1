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

// A hand-written `### History` block (before/after numbers of a change) survives a merge of its section.
const HISTORY_HEADING = '### History';

function ratioRow(o: BenchOutcome): string {
  return o.section
    ? `| ${o.name} | ${o.section.ratio.label} | **${o.section.ratio.value.toFixed(3)}** |`
    : `| ${o.name} | not run | ${o.error ?? ''} |`;
}

function sectionLines(o: BenchOutcome, note?: RunNote): string[] {
  const lines = [`## ${o.section?.title ?? o.name}`, ''];
  if (note) {
    lines.push(`Last run on its own: ${note.command}, ${note.date}. Machine: ${note.machine}.`, '');
  }
  if (!o.section) {
    lines.push(`Not run: ${o.error ?? 'unknown error'}`);
    return lines;
  }
  lines.push(o.section.method, '', '| measure | value |', '|---|---|');
  for (const row of o.section.rows) lines.push(`| ${row.label} | ${row.value} |`);
  lines.push(`| **${o.section.ratio.label}** | **${o.section.ratio.value.toFixed(3)}** |`);
  return lines;
}

/** The whole document, from a run of every bench. */
export function renderBenchmarks(outcomes: readonly BenchOutcome[], note: RunNote): string {
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
  for (const o of outcomes) lines.push('', ...sectionLines(o));
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

function replaceSection(lines: string[], o: BenchOutcome, note: RunNote): string[] {
  const headings = new Set([`## ${o.name}`, ...(o.section ? [`## ${o.section.title}`] : [])]);
  const start = lines.findIndex((line) => headings.has(line.trim()));
  const fresh = sectionLines(o, note);
  if (start < 0) return [...lines, '', ...fresh];
  let end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
  if (end < 0) end = lines.length;
  const old = lines.slice(start, end);
  const historyAt = old.findIndex((line) => line.trim() === HISTORY_HEADING);
  const kept = historyAt < 0 ? [] : ['', ...trimBlankEnd(old.slice(historyAt))];
  const tail = end < lines.length ? [''] : [];
  return [...lines.slice(0, start), ...fresh, ...kept, ...tail, ...lines.slice(end)];
}

function trimBlankEnd(lines: string[]): string[] {
  let end = lines.length;
  while (end > 0 && (lines[end - 1] ?? '').trim() === '') end -= 1;
  return lines.slice(0, end);
}
