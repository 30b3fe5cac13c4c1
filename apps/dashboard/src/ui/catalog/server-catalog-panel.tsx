import type { ComponentProps } from 'react';
import type { ApiProblem } from '@/server/api-problem';
import { Panel, ProblemCallout } from '@/ui/feedback';
import type { EffectiveEntryView } from '@/views/definition-views';
import { RefreshCatalogForm } from './refresh-catalog-form';
import { ServerCatalog } from './server-catalog';

type CatalogProps = ComponentProps<typeof ServerCatalog>;

// A server's page: what agents get from it, as the reader gets it, with refresh for those who may.
export function ServerCatalogPanel({
  entry,
  workspaceId,
  problem,
  catalogServer,
  serverCatalog,
  canRefresh,
}: {
  entry: EffectiveEntryView;
  workspaceId: string;
  /** Set when the catalog could not be read. */
  problem: ApiProblem | undefined;
  catalogServer: CatalogProps['server'] | undefined;
  serverCatalog: CatalogProps['catalog'];
  canRefresh: boolean;
}) {
  return (
    <Panel
      id="server-catalog"
      title="Catalog"
      description="What agents get from this server, as you get it: discovered by a worker for this exact definition."
      actions={
        catalogServer && canRefresh ? (
          <RefreshCatalogForm
            workspaceId={workspaceId}
            serverName={entry.name}
            perUser={entry.perUser === true}
          />
        ) : undefined
      }
    >
      {problem !== undefined ? (
        <ProblemCallout problem={problem} context="The catalog could not be loaded" />
      ) : catalogServer === undefined ? (
        <p className="muted">
          Not in your catalog: only servers approved for you now are discovered and served to agents.
        </p>
      ) : (
        <ServerCatalog server={catalogServer} catalog={serverCatalog} />
      )}
    </Panel>
  );
}
