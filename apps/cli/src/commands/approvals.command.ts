import { listApprovalRequests } from '@gatehouse/commands';
import { apiClientFor } from '../api-client/api-target';
import type { Output } from '../api-client/command-client';
import { oneOf, parseCommandArgs, required } from '../cli-args';
import { renderTable } from '../output/table';
import { API_HELP, API_OPTIONS, printHelp, type CliCommand } from './cli-command';

/** Pages followed at most (200 requests each): a queue longer than that is cut, and said so on stderr. */
const MAX_PAGES = 10;

type RequestPage = Output<typeof listApprovalRequests>;

export const approvalsCommand: CliCommand = {
  name: 'approvals',
  usage: 'gatehouse approvals --workspace <id> [--status open|closed|all] [--json]',
  summary: "A workspace's approval requests, newest first: the open queue by default.",
  help: [
    '  --workspace <id>   the workspace',
    '  --status <s>       open (default), closed or all',
    'Deciding is done by an approver in the dashboard or over REST, never here.',
    ...API_HELP,
  ],
  async run(args, io) {
    const { values } = parseCommandArgs(args, {
      ...API_OPTIONS,
      workspace: { type: 'string' },
      status: { type: 'string', default: 'open' },
    });
    if (values.help) return printHelp(io, approvalsCommand);
    const workspaceId = required(values.workspace, 'workspace');
    const status = oneOf(values.status, 'status', ['open', 'closed', 'all'] as const);
    const client = await apiClientFor(io, values.api);
    const items: RequestPage['items'] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page += 1) {
      const answer: RequestPage = await client.call(listApprovalRequests, {
        workspaceId,
        status,
        limit: 200,
        ...(cursor !== undefined ? { cursor } : {}),
      });
      items.push(...answer.items);
      cursor = answer.nextCursor ?? undefined;
      if (cursor === undefined) break;
    }
    if (cursor !== undefined) io.err(`gatehouse: only the newest ${items.length} requests are shown`);
    if (values.json) return io.out(JSON.stringify({ items }));
    const rows = items.map((request) => [
      request.id,
      request.identity.serverName,
      request.status,
      request.trigger,
      request.identity.principalUserId === null ? 'workspace' : request.identity.principalUserId,
      request.openedAt,
    ]);
    for (const line of renderTable(['ID', 'SERVER', 'STATUS', 'TRIGGER', 'FOR', 'OPENED'], rows))
      io.out(line);
  },
};
