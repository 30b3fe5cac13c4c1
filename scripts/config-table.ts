// `npm run docs:config`: rewrites the generated sections of the docs: the configuration table in
// docs/reference/configuration.md (from each app's config schema, so the docs cannot drift from what the apps
// accept) and the index in docs/decisions/README.md. scripts/config-table.spec.ts fails while either file
// differs from what this script would write.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describeConfig, renderConfigTable, typeLabel, type ConfigSchema } from '@gatehouse/platform';
import { apiConfigSchema } from '../apps/api/src/config/api.config';
import { dashboardConfigSchema } from '../apps/dashboard/src/config/dashboard.config';
import { gatewayConfigSchema } from '../apps/gateway/src/config/gateway.config';
import { workerConfigSchema } from '../apps/worker/src/config/worker.config';
import { findRepositoryRoot } from './start/repository-root';

export const CONFIG_MARKERS = {
  start: '<!-- config-table:start -->',
  end: '<!-- config-table:end -->',
} as const;
export const DECISIONS_MARKERS = {
  start: '<!-- decisions:start -->',
  end: '<!-- decisions:end -->',
} as const;

type Markers = { start: string; end: string };

export const CONFIGURATION_DOC = 'docs/reference/configuration.md';
export const DECISIONS_INDEX_DOC = 'docs/decisions/README.md';

/**
 * The dashboard may not import libs/platform (it is a separate Next.js build), so its schema has no type
 * labels of its own; they are added here, on clones, for the table only.
 */
function withTypeLabels(schema: ConfigSchema, labels: Readonly<Record<string, string>>): ConfigSchema {
  const shape = schema.shape as Record<string, z.ZodType>;
  return z.object(
    Object.fromEntries(
      Object.entries(shape).map(([name, field]) => [
        name,
        labels[name] ? typeLabel(field, labels[name]) : field,
      ]),
    ),
  );
}

const dashboardForTable = withTypeLabels(dashboardConfigSchema, {
  NODE_ENV: 'development | test | production',
  DASHBOARD_PORT: 'port',
  API_URL: 'URL',
  API_PUBLIC_URL: 'URL',
  GATEWAY_URL: 'URL',
});

const APPS: readonly { name: string; schema: ConfigSchema; summary: string }[] = [
  { name: 'api', schema: apiConfigSchema, summary: '`apps/api/src/config/api.config.ts`' },
  { name: 'worker', schema: workerConfigSchema, summary: '`apps/worker/src/config/worker.config.ts`' },
  { name: 'gateway', schema: gatewayConfigSchema, summary: '`apps/gateway/src/config/gateway.config.ts`' },
  {
    name: 'dashboard',
    schema: dashboardForTable,
    summary: '`apps/dashboard/src/config/dashboard.config.ts`',
  },
];

/** The configuration section: one table per app, in the schemas' order. */
export function renderConfigSection(): string {
  const parts = [
    '_Generated from the config schemas by `npm run docs:config`; do not edit by hand._',
    'Each app reads only its own variables, once at boot; a bad value stops it with one line naming the variable.',
  ];
  for (const app of APPS) {
    parts.push(`#### ${app.name} (${app.summary})`, renderConfigTable(describeConfig(app.schema)));
  }
  return parts.join('\n\n');
}

/** `- [0004 — Title](0004-....md)` for every decision record, in number order (links relative to the index). */
export function renderDecisionsIndex(decisionsDir: string): string {
  const files = readdirSync(decisionsDir)
    .filter((file) => /^\d{4}-.+\.md$/.test(file))
    .sort();
  if (files.length === 0) return '_No decision records yet._';
  return files
    .map((file) => {
      const firstLine = readFileSync(join(decisionsDir, file), 'utf8').split('\n')[0] ?? '';
      const title = firstLine.replace(/^#\s*/, '').trim() || file;
      return `- [${title}](${file})`;
    })
    .join('\n');
}

export type ReplaceResult =
  { ok: true; text: string } | { ok: false; reason: 'markers_missing'; markers: Markers };

/** Replaces what lies between the two markers (kept) with `content`. */
export function replaceBetweenMarkers(text: string, markers: Markers, content: string): ReplaceResult {
  const start = text.indexOf(markers.start);
  const end = text.indexOf(markers.end, start + markers.start.length);
  if (start < 0 || end < 0) return { ok: false, reason: 'markers_missing', markers };
  return { ok: true, text: `${text.slice(0, start + markers.start.length)}\n${content}\n${text.slice(end)}` };
}

/** The generated files, relative to the repository root, each with its markers and what goes between them. */
export function generatedSections(root: string): readonly { file: string; markers: Markers; content: string }[] {
  return [
    { file: CONFIGURATION_DOC, markers: CONFIG_MARKERS, content: renderConfigSection() },
    {
      file: DECISIONS_INDEX_DOC,
      markers: DECISIONS_MARKERS,
      content: renderDecisionsIndex(join(root, 'docs', 'decisions')),
    },
  ];
}

function main(): void {
  const root = findRepositoryRoot(__dirname);
  for (const section of generatedSections(root)) {
    const path = join(root, section.file);
    const current = readFileSync(path, 'utf8');
    const result = replaceBetweenMarkers(current, section.markers, section.content);
    if (!result.ok) {
      console.error(`${section.file} has no ${result.markers.start} ... ${result.markers.end} markers`);
      process.exit(1);
    }
    if (result.text === current) {
      process.stdout.write(`${section.file} is up to date\n`);
      continue;
    }
    writeFileSync(path, result.text);
    process.stdout.write(`${section.file}: generated section rewritten\n`);
  }
}

if (require.main === module) main();
