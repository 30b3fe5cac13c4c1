import { getEffectiveDefinitions } from '@gatehouse/commands';
import { apiClientFor } from '../api-client/api-target';
import { oneOf, parseCommandArgs, required } from '../cli-args';
import { renderTable } from '../output/table';
import { API_HELP, API_OPTIONS, printHelp, type CliCommand } from './cli-command';
import { sourceProblemLines } from './source-problems';

/** The transport an effective entry names (its identity, else its projection), or '-' when neither exists. */
export function transportOf(entry: {
  identity: Record<string, unknown> | null;
  projection: Record<string, unknown> | null;
}): string {
  const fromIdentity = entry.identity?.['transport'];
  if (typeof fromIdentity === 'string') return fromIdentity;
  const transport = entry.projection?.['transport'] as { kind?: unknown } | undefined;
  return typeof transport?.kind === 'string' ? transport.kind : '-';
}

export const serversCommand: CliCommand = {
  name: 'servers',
  usage: 'gatehouse servers --workspace <id> [--view principal|workspace] [--json]',
  summary: "A workspace's effective servers: transport, status, whether each is approved, and its source.",
  help: [
    '  --workspace <id>   the workspace',
    '  --view <view>      principal (you: every tier; the default) or workspace (the workspace alone)',
    ...API_HELP,
  ],
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      ...API_OPTIONS,
      workspace: { type: 'string' },
      view: { type: 'string', default: 'principal' },
    });
    if (values.help) return printHelp(io, serversCommand);
    const workspaceId = required(values.workspace, 'workspace');
    const view = oneOf(values.view, 'view', ['principal', 'workspace'] as const);
    const client = await apiClientFor(io, values.api);
    const effective = await client.call(getEffectiveDefinitions, { workspaceId, view });
    if (values.json) return io.out(JSON.stringify(effective));
    const rows = effective.entries.map((entry) => [
      entry.name,
      transportOf(entry),
      entry.status,
      entry.activation.state,
      entry.source.origin,
    ]);
    for (const line of renderTable(['NAME', 'TRANSPORT', 'STATUS', 'ACTIVATION', 'SOURCE'], rows))
      io.out(line);
    for (const line of sourceProblemLines(effective.problems)) io.err(line);
  },
};
