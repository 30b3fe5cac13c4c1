import type { Metadata } from 'next';
import { redirectIfSessionEnded } from '@/server/current-session';
import {
  getDefinitionSource,
  listDefinitionSources,
  listDefinitionVariables,
} from '@/server/definition-queries';
import { getSourceVersion, listSourceVersions } from '@/server/source-history-queries';
import { isDefinitionTier } from '@/server/definition-permissions';
import { serversPageContext } from '@/server/servers-page-context';
import { sourceFor } from '@/server/tier-source';
import { ServersContextFailure } from '@/ui/servers/servers-context-failure';
import { DateTime } from '@/ui/date-time';
import { EmptyState, Panel, ProblemCallout } from '@/ui/feedback';
import { firstParam, type SearchParams } from '@/ui/paging';
import { TIER_LABELS } from '@/ui/servers/definition-labels';
import { SourcesHeader } from '@/ui/servers/sources-header';
import { TierSourcesPanel } from '@/ui/servers/tier-sources-panel';
import { TierTabs } from '@/ui/servers/tier-tabs';
import { SourceEditor } from '@/ui/source-editor/source-editor';
import { SourceHistoryPanel } from '@/ui/source-editor/source-history-panel';
import { StoredSourceProblems } from '@/ui/source-editor/stored-source-problems';
import type { DefinitionTier } from '@/views/definition-views';

export const metadata: Metadata = { title: 'Server sources' };

// Source editing (docs/architecture/definitions.md): the tiers the person may write (managed, local, project,
// user, plugin as their role and maintainership allow), the stored source's problems, the editor (the API's
// editable document: secrets as placeholders that keep their values; entry by entry or as JSON; a preview
// before every save), and the source's versions with the diff of a chosen one against the one before.

// Next.js requires a page as the module's default export.
export default async function ServerSourcesPage({
  params,
  searchParams,
}: {
  params: Promise<{ workspaceId: string }>;
  searchParams: Promise<SearchParams>;
}) {
  const { workspaceId } = await params;
  const context = await serversPageContext(workspaceId);
  if (context.kind !== 'ready')
    return <ServersContextFailure context={context} title="Sources could not be loaded" />;
  const { workspace, permissions, userId } = context;
  const query = await searchParams;
  const asked = firstParam(query, 'tier') ?? '';
  const tiers = permissions.tiers;
  const tier: DefinitionTier | undefined =
    isDefinitionTier(asked) && tiers.includes(asked)
      ? asked
      : (tiers.find((t) => t === 'project') ?? tiers[0]);
  const name = (firstParam(query, 'name') ?? '').trim();
  const base = `/servers/${workspace.id}/sources`;

  const header = <SourcesHeader workspace={workspace} />;
  if (tier === undefined) {
    return (
      <div className="stack">
        {header}
        <EmptyState title="No tier you may write">
          Your role does not include writing server definitions. Ask an owner or admin.
        </EmptyState>
      </div>
    );
  }

  const sources = await listDefinitionSources(workspace.id);
  if (!sources.ok) redirectIfSessionEnded(sources.problem);
  const tenantWide = tier === 'managed' || tier === 'plugin';
  const existing = sources.ok ? sourceFor(sources.data.items, tier, workspace.id, userId, name) : undefined;
  const stored = existing ? await getDefinitionSource(existing.id) : undefined;
  const namedOfTier = sources.ok ? sources.data.items.filter((source) => source.tier === tier) : [];
  const askedVersion = Number(firstParam(query, 'version') ?? '');
  const [versions, shownVersion, variableLists] = await Promise.all([
    existing ? listSourceVersions(existing.id) : Promise.resolve(undefined),
    existing && Number.isInteger(askedVersion) && askedVersion >= 1
      ? getSourceVersion(existing.id, askedVersion)
      : Promise.resolve(undefined),
    Promise.all(
      (['tenant', 'workspace', 'user'] as const).map((scope) => listDefinitionVariables(scope, workspace.id)),
    ),
  ]);
  // Variables set anywhere an entry here could read them: the editor warns about the others.
  const setVariables = variableLists.flatMap((list) =>
    list.ok ? list.data.items.filter((item) => item.set).map((item) => item.name) : [],
  );

  return (
    <div className="stack">
      {header}
      <TierTabs tiers={tiers} tier={tier} base={base} />
      <p className="muted">{TIER_LABELS[tier].description}</p>
      {!sources.ok ? (
        <ProblemCallout problem={sources.problem} context="Sources could not be listed" />
      ) : null}

      {tenantWide && namedOfTier.length > 0 ? (
        <TierSourcesPanel tier={tier} namedOfTier={namedOfTier} base={base} />
      ) : null}

      <StoredSourceProblems stored={stored} />

      <Panel
        id="source-editor"
        title={existing ? `Edit the ${tier} source` : `Write the ${tier} source`}
        description={
          stored?.ok ? (
            <>
              {stored.data.origin}, version {stored.data.version}, updated{' '}
              <DateTime value={stored.data.updatedAt} />. Secrets show as [REDACTED] and keep their stored
              values when saved.
            </>
          ) : (
            'Add servers one by one, paste a document, or import an .mcp.json file.'
          )
        }
      >
        <SourceEditor
          key={`${tier}:${name}`}
          tier={tier}
          workspaceId={workspace.id}
          name={tenantWide ? name : null}
          nameEditable={tenantWide && existing === undefined}
          expectedVersion={existing?.version ?? null}
          initialDocument={stored?.ok ? stored.data.editableDocument : null}
          setVariables={setVariables}
          variablesHref={`/servers/${workspace.id}/variables`}
        />
      </Panel>

      <SourceHistoryPanel
        versions={versions}
        shownVersion={shownVersion}
        hrefFor={(version) =>
          `${base}?tier=${tier}${tenantWide ? `&name=${encodeURIComponent(name)}` : ''}&version=${version}#history`
        }
      />
    </div>
  );
}
