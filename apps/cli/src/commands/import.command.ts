import { readFile, stat } from 'node:fs/promises';
import {
  getEffectiveDefinitions,
  importDefinitionSource,
  previewDefinitionSource,
} from '@gatehouse/commands';
import { checkDocumentText, MAX_DOCUMENT_BYTES } from '@gatehouse/definitions';
import { apiClientFor } from '../api-client/api-target';
import { parseCommandArgs, required } from '../cli-args';
import { CliError, usageError } from '../cli-io';
import { renderTable } from '../output/table';
import { currentVersionOf, sourceTargetOf } from './definition-source-target';
import { effectiveAfterImport } from './effective-after-import';
import { API_HELP, API_OPTIONS, printHelp, type CliCommand } from './cli-command';

/** The file's text, judged as the API judges it (size, JSON, no repeated key, depth) before anything is sent. */
async function documentTextOf(path: string): Promise<{ text: string; value: Record<string, unknown> }> {
  let size: number;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) throw usageError(`${path} is not a file`);
    size = stats.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw usageError(`cannot read ${path}`);
  }
  if (size > MAX_DOCUMENT_BYTES) throw usageError(`${path} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  const text = await readFile(path, 'utf8');
  const checked = checkDocumentText(text);
  // The reason and path only: the parser's own message would quote the text, which may hold a secret.
  if (!checked.ok) {
    const at = checked.problem.path.length > 0 ? ` at ${checked.problem.path.join('.')}` : '';
    throw usageError(`${path} is not a readable .mcp.json document: ${checked.problem.reason}${at}`);
  }
  const value = checked.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(`${path} is not a readable .mcp.json document: root_not_object`);
  }
  return { text, value: value as Record<string, unknown> };
}

function problemsText(problems: readonly Record<string, unknown>[]): string {
  return problems.map((problem) => String(problem['reason'] ?? problem['code'] ?? '?')).join(',') || '-';
}

export const importCommand: CliCommand = {
  name: 'import',
  usage:
    'gatehouse import <file> --tier managed|plugin|project|local|user --workspace <id> [--name <n>] [--dry-run] [--json]',
  summary: 'Write a .mcp.json or managed-mcp.json file as a definition source (never approves anything).',
  help: [
    '  <file>             a { "mcpServers": { ... } } document (.mcp.json, managed-mcp.json)',
    "  --tier <tier>      which source: managed and plugin take --name; project and local are the workspace's;",
    '                     user is yours',
    '  --workspace <id>   the workspace (the project/local source, and where the approvals are looked up)',
    '  --name <n>         managed and plugin sources: the origin name (managed:<n>)',
    '  --dry-run          write nothing: print what the write would store, the approvals it would leave',
    '                     stale and the approval requests it would open',
    'An existing source is replaced at the version read just before (a concurrent change is refused, exit 1).',
    ...API_HELP,
  ],
  async run(args, io) {
    const { values, positionals } = parseCommandArgs(
      args,
      {
        ...API_OPTIONS,
        tier: { type: 'string' },
        workspace: { type: 'string' },
        name: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
      },
      { min: 1, max: 1 },
    );
    if (values.help) return printHelp(io, importCommand);
    const file = positionals[0] as string;
    const workspaceId = required(values.workspace, 'workspace');
    const target = sourceTargetOf(values);
    const { text, value } = await documentTextOf(file);
    const client = await apiClientFor(io, values.api);
    const expectedVersion = await currentVersionOf(client, target, workspaceId);
    const versioned = { ...target, ...(expectedVersion !== undefined ? { expectedVersion } : {}) };

    if (values['dry-run']) {
      const preview = await client.call(previewDefinitionSource, { ...versioned, document: value });
      // The user and local tiers take part in the caller's view only; the others in the workspace's too.
      const view = target.tier === 'user' || target.tier === 'local' ? 'principal' : 'workspace';
      const now = await client.call(getEffectiveDefinitions, { workspaceId, view });
      const effective = effectiveAfterImport(
        { tier: preview.tier, origin: preview.origin },
        preview.entries,
        now.entries,
      );
      if (values.json) return io.out(JSON.stringify({ preview, effective }));
      io.out(
        `dry run: ${preview.origin} ${preview.currentVersion === null ? 'would be created' : `v${preview.currentVersion}`}` +
          (preview.nextVersion === null ? ' (unchanged)' : ` -> v${preview.nextVersion}`),
      );
      const entries = preview.entries.map((entry, index) => {
        const after = effective[index];
        const word = after === undefined ? '-' : after.outcome.replace('_', ' ');
        return [
          entry.name,
          entry.change,
          entry.state,
          after?.other === null || after === undefined ? word : `${word} (${after.other})`,
          problemsText(entry.problems),
        ];
      });
      for (const line of renderTable(
        ['NAME', 'CHANGE', 'STATE', `EFFECTIVE (${view} view)`, 'PROBLEMS'],
        entries,
      ))
        io.out(line);
      if (preview.problems.length > 0) io.out(`source problems: ${problemsText(preview.problems)}`);
      io.out('');
      io.out(
        `approval requests it would open: ${preview.requests.filter((r) => r.outcome === 'opened').length}`,
      );
      const requests = preview.requests.map((request) => [
        request.serverName,
        request.workspaceName,
        request.principalUserId ?? 'workspace',
        request.outcome,
      ]);
      if (requests.length > 0)
        for (const line of renderTable(['SERVER', 'WORKSPACE', 'FOR', 'OUTCOME'], requests)) io.out(line);
      if (preview.staleApprovals.length > 0) {
        io.out('');
        io.out('approvals it would leave stale:');
        const stale = preview.staleApprovals.map((a) => [
          a.serverName,
          a.workspaceName,
          a.principalUserId ?? 'workspace',
          a.becomes,
        ]);
        for (const line of renderTable(['SERVER', 'WORKSPACE', 'FOR', 'BECOMES'], stale)) io.out(line);
      }
      return;
    }

    const source = await client.call(importDefinitionSource, { ...versioned, content: text });
    if (values.json) return io.out(JSON.stringify(source));
    io.out(`imported ${source.origin} v${source.version} (${source.entries.length} entries)`);
    const entries = source.entries.map((entry) => [
      entry['name'],
      entry['state'],
      entry['transport'] ??
        (entry['projection'] as { transport?: { kind?: unknown } } | undefined)?.transport?.kind,
      problemsText((entry['problems'] as Record<string, unknown>[] | undefined) ?? []),
    ]);
    for (const line of renderTable(['NAME', 'STATE', 'TRANSPORT', 'PROBLEMS'], entries)) io.out(line);
    if (source.problems.length > 0) io.out(`source problems: ${problemsText(source.problems)}`);
    io.out(`nothing is approved by an import: see gatehouse approvals --workspace ${workspaceId}`);
  },
};
