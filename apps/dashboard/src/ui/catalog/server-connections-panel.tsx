import type { ApiResult } from '@/server/api-client';
import { Panel, ProblemCallout } from '@/ui/feedback';
import type { ServerStatusView } from '@/views/catalog-views';
import { ServerConnections, type LeaseHolderPaging } from './server-connections';

// A server's connections: the workers' last probe and the live lease holders, or why they could not be read.
export function ServerConnectionsPanel({
  status,
  fingerprint,
  paging,
}: {
  status: ApiResult<ServerStatusView>;
  fingerprint: string | null;
  paging: LeaseHolderPaging;
}) {
  return (
    <Panel
      id="server-connections"
      title="Connections"
      description="What workers found when they last probed it, and who holds a live lease on it now."
    >
      {status.ok ? (
        <ServerConnections status={status.data} fingerprint={fingerprint} paging={paging} />
      ) : (
        <ProblemCallout problem={status.problem} context="The connection state could not be loaded" />
      )}
    </Panel>
  );
}
